package io.crater.sim.cluster;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * The simulated cluster's DCGM exporter endpoint: {@code GET /metrics} on a listener of its own on 127.0.0.1 (as
 * dcgm-exporter listens on its own port on each node), without credentials, one series per NVIDIA card of every node
 * ({@link DcgmExposition}). A card held by a pod reads what the GPU exporter last read of the pod; a pod the exporter
 * never sees ({@code SIM_GPU_UTIL=none}) leaves its cards without series, as a card DCGM cannot read.
 */
final class DcgmEndpoint implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(DcgmEndpoint.class);
    /** The accelerator resource dcgm-exporter reports: NVIDIA's. */
    static final String NVIDIA = SmiTables.NVIDIA;

    private final Vertx vertx;
    private final SimState state;
    private final GpuCards cards;
    private final GpuExporter gpus;
    private final Clock clock;
    private HttpServer server;

    DcgmEndpoint(Vertx vertx, SimState state, GpuCards cards, GpuExporter gpus, Clock clock) {
        this.vertx = vertx;
        this.state = state;
        this.cards = cards;
        this.gpus = gpus;
        this.clock = clock;
    }

    /** Starts listening on 127.0.0.1 and the port (0: any free one); returns the metrics URL. */
    String start(int port) {
        try {
            server = vertx.createHttpServer(new HttpServerOptions()
                            .setHost("127.0.0.1")
                            .setPort(port)
                            .setHttp2ClearTextEnabled(false))
                    .requestHandler(this::handle)
                    .listen()
                    .toCompletionStage()
                    .toCompletableFuture()
                    .get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("the simulated DCGM exporter could not listen on port " + port, e);
        }
        String url = "http://127.0.0.1:" + server.actualPort() + "/metrics";
        LOG.infof("simulated DCGM exporter serving %s", url);
        return url;
    }

    private void handle(HttpServerRequest req) {
        if (!req.path().equals("/metrics")) {
            req.response().setStatusCode(404).end("404 page not found\n");
            return;
        }
        if (req.method() != HttpMethod.GET && req.method() != HttpMethod.HEAD) {
            req.response().setStatusCode(405).end("method not allowed\n");
            return;
        }
        String body;
        try {
            body = DcgmExposition.render(states(clock.instant()));
        } catch (RuntimeException e) {
            LOG.warn("the simulated DCGM exporter failed a scrape", e);
            req.response().setStatusCode(500).end("error collecting metrics\n");
            return;
        }
        req.response().putHeader("Content-Type", DcgmExposition.CONTENT_TYPE).end(body);
    }

    /** Every NVIDIA card of every node, by node name and index, with its holder's reading. */
    List<DcgmExposition.CardState> states(Instant now) {
        List<DcgmExposition.CardState> out = new ArrayList<>();
        List<Node> nodes = new ArrayList<>(state.nodes.getStore().list());
        nodes.sort(Comparator.comparing(n -> n.getMetadata().getName()));
        for (Node node : nodes) {
            Map<String, String> holders = cards.holders(node.getMetadata().getName());
            Map<Integer, GpuFaults.Fault> faults = GpuFaults.of(node);
            for (GpuCards.Card card : cards.of(node)) {
                if (!card.resource().equals(NVIDIA)) {
                    continue;
                }
                String holder = holders.get(card.resource() + "/" + card.index());
                Pod pod = holder == null ? null : state.pods.getStore().getByKey(holder);
                GpuFaults.Fault fault = faults.getOrDefault(card.index(), GpuFaults.Fault.NONE);
                if (pod == null) {
                    out.add(DcgmExposition.CardState.free(card).with(fault));
                } else if (!GpuExporter.profile(pod).isEmpty()) {
                    GpuExporter.Reading r = gpus.reading(pod, now);
                    out.add(new DcgmExposition.CardState(
                                    card,
                                    pod.getMetadata().getNamespace(),
                                    pod.getMetadata().getName(),
                                    container(pod, card.resource()),
                                    r.utilisation(),
                                    r.memory())
                            .with(fault));
                }
            }
        }
        return out;
    }

    /** The container that asks for the resource (the device plugin gives it the card); else the first. */
    static String container(Pod pod, String resource) {
        for (Container c : pod.getSpec().getContainers()) {
            if (c.getResources() != null
                    && (c.getResources().getRequests() != null
                                    && c.getResources().getRequests().containsKey(resource)
                            || c.getResources().getLimits() != null
                                    && c.getResources().getLimits().containsKey(resource))) {
                return c.getName();
            }
        }
        return pod.getSpec().getContainers().get(0).getName();
    }

    @Override
    public void close() {
        if (server != null) {
            server.close();
        }
    }
}
