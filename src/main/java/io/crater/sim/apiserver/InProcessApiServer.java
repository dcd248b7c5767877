package io.crater.sim.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * The simulated cluster's Kubernetes API server: a Vert.x HTTP host on 127.0.0.1 in front of {@link KubeStore},
 * an indexed object store with the API server's semantics for what Crater uses. It routes the Kubernetes URL
 * space (core and named groups, namespaced and cluster-scoped resources, the {@code status} subresource,
 * watches over chunked HTTP or WebSocket, discovery), serves {@code pods/{name}/log} itself (with {@code follow}
 * streamed as the containers write, from {@link PodLogSource}), {@code pods/{name}/exec} (a shell of {@link PodExec},
 * {@link ExecSession}) and {@code pods/{name}/portforward} (to what {@link PodPortTargets} says a pod's port reaches,
 * {@link SpdyPortForwardSession} for kubectl, {@link PortForwardSession} for fabric8), and answers the pod subresources it does not simulate with a Kubernetes 405 Status.
 * It knows nothing of what plays the cluster behind it: the pods' logs, shells and ports are handed to it
 * ({@link #backPods}) before it starts.
 */
public final class InProcessApiServer implements AutoCloseable {

    /** Requests served and the time spent serving them (watch streams count only their start). */
    public record Stats(long requests, long busyNanos, int watches, long revision, int objects) {}

    private static final Logger LOG = Logger.getLogger(InProcessApiServer.class);
    private static final List<String> UNSERVED = List.of("attach", "proxy", "ephemeralcontainers", "resize");
    private static final long BOOKMARK_EVERY_MS = 30_000;

    private final Vertx vertx;
    private final Clock clock;
    private final KubeStore store;
    private final Discovery discovery;
    private final WatchServing watches;
    private final Writes writes;
    private final AccessReviews accessReviews = new AccessReviews();
    private final Outages outages = new Outages();
    private final Evictions evictions;
    private PodLogServing logServing;
    private PodExec exec;
    private PodPortTargets ports;
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong busyNanos = new AtomicLong();
    private HttpServer server;
    private ClientUses uses = ClientUses.fromSystemProperty();

    public InProcessApiServer() {
        this(Clock.systemUTC());
    }

    public InProcessApiServer(Clock clock) {
        this.clock = clock;
        this.vertx = Vertx.vertx();
        this.store = new KubeStore(clock, KubeStore.DEFAULT_LOG);
        this.discovery = new Discovery(store);
        this.watches = new WatchServing(vertx, store);
        this.writes = new Writes(store, clock);
        this.evictions = new Evictions(store, writes);
    }

    /** What serves the pods' subresources: their logs, the shells exec reaches and what their ports reach. */
    public void backPods(PodLogSource logs, PodExec exec, PodPortTargets ports) {
        this.logServing = new PodLogServing(vertx, store, logs);
        this.exec = exec;
        this.ports = ports;
    }

    /** Records the uses of Crater's own client in {@code file} instead of where the build asks (ClientUses). */
    void recordUsesIn(java.nio.file.Path file) {
        this.uses = new ClientUses(file);
    }

    /** Starts listening on 127.0.0.1 and the given port (0 = any free port); returns the base URL. */
    public String start(int port) {
        if (logServing == null) {
            throw new IllegalStateException("the API server serves pods only once something plays them (backPods)");
        }
        Set<String> protocols = new LinkedHashSet<>(ExecSession.PROTOCOLS);
        protocols.addAll(PortForwardSession.PROTOCOLS);
        protocols.add(SpdyPortForwardSession.PROTOCOL);
        try {
            server = vertx.createHttpServer(new HttpServerOptions()
                            .setHost("127.0.0.1")
                            .setPort(port)
                            .setWebSocketSubProtocols(List.copyOf(protocols)))
                    .requestHandler(this::handle)
                    .listen()
                    .toCompletionStage()
                    .toCompletableFuture()
                    .get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("the simulated cluster's API server could not start", e);
        }
        vertx.setPeriodic(BOOKMARK_EVERY_MS, id -> store.bookmarks());
        String url = "http://127.0.0.1:" + server.actualPort();
        LOG.infof("simulated Kubernetes API server listening on %s", url);
        return url;
    }

    public Stats stats() {
        return new Stats(requests.get(), busyNanos.get(), store.watchCount(), store.revision(), store.count());
    }

    /** What SelfSubjectAccessReviews answer: everything allowed unless a test denies some. */
    public AccessReviews accessReviews() {
        return accessReviews;
    }

    /** Requests answered 503 while a test wants the API server to refuse them. */
    public Outages outages() {
        return outages;
    }

    /** The Vert.x instance serving the API, shared by the simulated cluster's other listeners. */
    public Vertx vertx() {
        return vertx;
    }

    /** The stored objects of the core group, read in place (no request), for what plays the cluster. */
    public ObjectLookup objects() {
        return (resource, namespace, name) -> {
            try {
                return store.get(store.resource("", "v1", resource), namespace, name)
                        .object();
            } catch (ApiError e) {
                return null;
            }
        };
    }

    private void handle(HttpServerRequest req) {
        requests.incrementAndGet();
        if (req.method() == HttpMethod.GET || req.method() == HttpMethod.DELETE && !hasBody(req)) {
            serve(req, null);
        } else {
            req.body().onSuccess(body -> serve(req, body)).onFailure(e -> fail(req, 400, "BadRequest", e.getMessage()));
        }
    }

    private static boolean hasBody(HttpServerRequest req) {
        String length = req.getHeader("Content-Length");
        return req.getHeader("Transfer-Encoding") != null || length != null && !length.equals("0");
    }

    private void serve(HttpServerRequest req, Buffer body) {
        long t0 = System.nanoTime();
        try {
            route(req, body);
        } catch (ApiError e) {
            fail(req, e.code, e.reason, e.getMessage());
        } catch (Selectors.BadSelector e) {
            fail(req, 400, "BadRequest", e.getMessage());
        } catch (RuntimeException e) {
            LOG.warn("the simulated API server failed a request", e);
            fail(req, 500, "InternalError", String.valueOf(e.getMessage()));
        } finally {
            busyNanos.addAndGet(System.nanoTime() - t0);
        }
    }

    /** Where a request points: a resource, maybe a namespace, a name and a subresource. */
    private record Target(
            ApiResource resource, String version, String namespace, String name, String subresource, boolean watch) {}

    private void route(HttpServerRequest req, Buffer body) {
        List<String> seg = new ArrayList<>(Arrays.asList(req.path().split("/")));
        seg.removeIf(String::isEmpty);
        if (seg.isEmpty() || discovery.serve(req, seg)) {
            if (seg.isEmpty()) {
                ok(req, 200, "{\"paths\":[\"/api\",\"/api/v1\",\"/apis\",\"/version\"]}");
            }
            return;
        }
        if (accessReviews.serves(seg)) {
            accessReviews.serve(req, body);
            return;
        }
        Target t = target(seg);
        outages.check(req, t.resource());
        uses.record(req, t.resource(), t.namespace(), t.name(), t.subresource(), t.watch());
        String sub = t.subresource();
        if (t.resource().key().equals("/pods") && sub != null && podSubresource(req, body, t)) {
            return;
        }
        if (sub != null && !(sub.equals("status") && t.resource().statusSubresource())) {
            throw new ApiError(404, "NotFound", "the server could not find the requested resource");
        }
        if (t.resource().key().equals("/bindings")) {
            if (req.method() != HttpMethod.POST || t.name() != null || t.namespace() == null) {
                throw new ApiError(405, "MethodNotAllowed", "bindings can only be created");
            }
            ObjectNode binding = object(req, body);
            bind(req, t.namespace(), binding.path("metadata").path("name").asText(""), binding);
        } else if (t.name() == null) {
            collection(req, body, t);
        } else {
            single(req, body, t);
        }
    }

    /** Serves a pod subresource other than {@code status}; false when it is none the server knows. */
    private boolean podSubresource(HttpServerRequest req, Buffer body, Target t) {
        String sub = t.subresource();
        boolean get = req.method() == HttpMethod.GET;
        boolean getOrPost = get || req.method() == HttpMethod.POST;
        if (sub.equals("log") && get) {
            logServing.serve(req, t.namespace(), t.name());
        } else if (sub.equals("exec") && getOrPost) {
            exec(req, t.namespace(), t.name());
        } else if (sub.equals("portforward") && getOrPost) {
            portForward(req, t.namespace(), t.name());
        } else if (sub.equals("binding") && req.method() == HttpMethod.POST) {
            bind(req, t.namespace(), t.name(), object(req, body));
        } else if (sub.equals("eviction") && req.method() == HttpMethod.POST) {
            evictions.evict(t.namespace(), t.name(), object(req, body), Writes.Options.of(req));
            ok(req, 201, ApiError.status(201, "", ""));
        } else if (UNSERVED.contains(sub)) {
            fail(req, 405, "MethodNotAllowed", "the simulated cluster does not serve pods/" + sub);
        } else {
            return false;
        }
        return true;
    }

    /** One named object (or its {@code status}): get, update, patch, delete. */
    private void single(HttpServerRequest req, Buffer body, Target t) {
        boolean statusOnly = t.subresource() != null;
        ApiResource r = t.resource();
        String ns = t.namespace();
        switch (req.method().name()) {
            case "GET" ->
                ok(
                        req,
                        200,
                        Tables.answer(
                                req,
                                store,
                                r,
                                t.version(),
                                store.get(r, ns, t.name()).json(),
                                clock.instant()));
            case "PUT" ->
                answer(
                        req,
                        writes.update(
                                r, t.version(), ns, t.name(), object(req, body), statusOnly, Writes.Options.of(req)));
            case "PATCH" -> {
                String type = RequestBodies.mediaType(req.getHeader("Content-Type"));
                JsonNode patch = RequestBodies.patch(type, bytes(body));
                answer(
                        req,
                        writes.patch(r, t.version(), ns, t.name(), type, patch, statusOnly, Writes.Options.of(req)));
            }
            case "DELETE" -> {
                JsonNode options = RequestBodies.options(req.getHeader("Content-Type"), bytes(body));
                answer(req, writes.delete(r, ns, t.name(), options, Writes.Options.of(req)));
            }
            default -> throw new ApiError(405, "MethodNotAllowed", req.method() + " is not supported on " + r.plural());
        }
    }

    /** {@code pods/exec}: a WebSocket session with the simulated shell of a running pod's container. */
    private void exec(HttpServerRequest req, String namespace, String pod) {
        JsonNode object = runningPod(namespace, pod, "exec into a container in");
        String container = req.getParam("container");
        List<String> containers = new ArrayList<>();
        object.path("spec")
                .path("containers")
                .forEach(c -> containers.add(c.path("name").asText()));
        if (container != null && !containers.contains(container)) {
            throw new ApiError(400, "BadRequest", "container " + container + " is not valid for pod " + pod);
        }
        if (!"websocket".equalsIgnoreCase(req.getHeader("Upgrade"))) {
            throw new ApiError(
                    400,
                    "BadRequest",
                    "pods/exec is served over WebSocket (" + String.join(", ", ExecSession.PROTOCOLS) + ")");
        }
        List<String> command = req.params().getAll("command");
        boolean tty = "true".equals(req.getParam("tty")) || "1".equals(req.getParam("tty"));
        ExecShell shell = exec.shell(object, container);
        req.toWebSocket().onSuccess(ws -> ExecSession.start(ws, shell, command, tty));
    }

    /**
     * {@code pods/portforward}: a WebSocket session piping what the running pod's ports reach, either SPDY tunnelled
     * through it (kubectl, {@link SpdyPortForwardSession}, the ports named per stream) or the kubelet's channel framing
     * (fabric8, {@link PortForwardSession}, each of {@code ports}, repeated or comma separated). A bare SPDY upgrade,
     * which kubectl tries only when the WebSocket is refused, is not served.
     */
    private void portForward(HttpServerRequest req, String namespace, String pod) {
        JsonNode object = runningPod(namespace, pod, "forward ports of");
        if ("websocket".equalsIgnoreCase(req.getHeader("Upgrade")) && offers(req, SpdyPortForwardSession.PROTOCOL)) {
            req.toWebSocket().onSuccess(ws -> SpdyPortForwardSession.start(ws, object, ports));
            return;
        }
        List<Integer> forwarded = PortForwardSession.ports(req.params().getAll("ports"));
        if (!"websocket".equalsIgnoreCase(req.getHeader("Upgrade"))) {
            throw new ApiError(
                    400,
                    "BadRequest",
                    "pods/portforward is served over WebSocket (" + String.join(", ", PortForwardSession.PROTOCOLS)
                            + ")");
        }
        PortForwardSession.checkProtocols(req.headers().getAll("Sec-WebSocket-Protocol"));
        req.toWebSocket().onSuccess(ws -> PortForwardSession.start(ws, object, forwarded, ports));
    }

    private static boolean offers(HttpServerRequest req, String protocol) {
        return req.headers().getAll("Sec-WebSocket-Protocol").stream()
                .flatMap(h -> Arrays.stream(h.split(",")))
                .anyMatch(p -> p.trim().equals(protocol));
    }

    /** The pod, when it exists (else 404) and is running (else 400, as for exec on a real cluster). */
    private JsonNode runningPod(String namespace, String pod, String action) {
        JsonNode object =
                store.get(store.resource("", "v1", "pods"), namespace, pod).object();
        String phase = object.path("status").path("phase").asText();
        if (!"Running".equals(phase)) {
            throw new ApiError(
                    400,
                    "BadRequest",
                    "pod " + pod + " is not running (" + phase + "): cannot " + action + " a completed or pending pod");
        }
        return object;
    }

    private void bind(HttpServerRequest req, String namespace, String pod, ObjectNode binding) {
        String bodyName = binding.path("metadata").path("name").asText("");
        if (!bodyName.isEmpty() && !bodyName.equals(pod)) {
            throw new ApiError(400, "BadRequest", "the binding's name does not match the pod's");
        }
        store.bind(namespace, pod, binding.path("target").path("name").asText(""));
        ok(req, 201, ApiError.status(201, "", ""));
    }

    private void collection(HttpServerRequest req, Buffer body, Target t) {
        ApiResource r = t.resource();
        Selectors.Selector labels = Selectors.labels(req.getParam("labelSelector"));
        Selectors.Selector fields = Selectors.fields(req.getParam("fieldSelector"), r.fields(), r.plural());
        switch (req.method().name()) {
            case "GET" -> {
                String w = req.getParam("watch");
                if (t.watch() || "true".equals(w) || "1".equals(w)) {
                    watches.serve(req, t.resource(), t.version(), t.namespace(), labels, fields);
                    return;
                }
                int limit;
                try {
                    limit = req.getParam("limit") == null ? 0 : Integer.parseInt(req.getParam("limit"));
                } catch (NumberFormatException e) {
                    throw new ApiError(400, "BadRequest", "limit must be an integer");
                }
                String list =
                        store.list(r, t.version(), t.namespace(), labels, fields, limit, req.getParam("continue"));
                ok(req, 200, Tables.answer(req, store, r, t.version(), list, clock.instant()));
            }
            case "POST" -> {
                if (r.namespaced() && t.namespace() == null) {
                    throw new ApiError(
                            405, "MethodNotAllowed", "create " + r.plural() + " needs a namespace in the URL");
                }
                answer(req, writes.create(r, t.version(), t.namespace(), object(req, body), Writes.Options.of(req)));
            }
            case "DELETE" -> {
                List<KubeStore.Entry> gone = store.deleteCollection(r, t.namespace(), labels, fields);
                StringBuilder out = new StringBuilder("{\"kind\":\"" + r.kind() + "List\",\"apiVersion\":\""
                        + r.apiVersion(t.version()) + "\",\"metadata\":{},\"items\":[");
                for (int i = 0; i < gone.size(); i++) {
                    out.append(i == 0 ? "" : ",").append(gone.get(i).json());
                }
                ok(req, 200, out.append("]}").toString());
            }
            default ->
                throw new ApiError(
                        405, "MethodNotAllowed", req.method() + " is not supported on the collection " + r.plural());
        }
    }

    private Target target(List<String> seg) {
        String group;
        String version;
        int i;
        if (seg.get(0).equals("api") && seg.size() >= 2) {
            group = "";
            version = seg.get(1);
            i = 2;
        } else if (seg.get(0).equals("apis") && seg.size() >= 3) {
            group = seg.get(1);
            version = seg.get(2);
            i = 3;
        } else {
            throw new ApiError(404, "NotFound", "the server could not find the requested resource");
        }
        List<String> rest = seg.subList(i, seg.size());
        boolean watch = false;
        if (!rest.isEmpty() && rest.get(0).equals("watch")) {
            watch = true;
            rest = rest.subList(1, rest.size());
        }
        String namespace = null;
        boolean namespaceItself = group.isEmpty()
                && rest.size() == 3
                && rest.get(0).equals("namespaces")
                && (rest.get(2).equals("status") || rest.get(2).equals("finalize"));
        if (rest.size() >= 3 && rest.get(0).equals("namespaces") && !namespaceItself) {
            namespace = rest.get(1);
            rest = rest.subList(2, rest.size());
        }
        if (rest.isEmpty() || rest.size() > 3) {
            throw new ApiError(404, "NotFound", "the server could not find the requested resource");
        }
        ApiResource r = store.resource(group, version, rest.get(0));
        if (r == null || (namespace != null && !r.namespaced())) {
            throw new ApiError(404, "NotFound", "the server could not find the requested resource");
        }
        String name = rest.size() >= 2 ? rest.get(1) : null;
        if (name != null && r.namespaced() && namespace == null) {
            throw new ApiError(404, "NotFound", "the server could not find the requested resource");
        }
        return new Target(r, version, namespace, name, rest.size() == 3 ? rest.get(2) : null, watch);
    }

    private static ObjectNode object(HttpServerRequest req, Buffer body) {
        return RequestBodies.object(req.getHeader("Content-Type"), bytes(body));
    }

    private static byte[] bytes(Buffer body) {
        return body == null ? null : body.getBytes();
    }

    /** A write's answer, its warnings in {@code Warning} headers as the real server sends them. */
    private static void answer(HttpServerRequest req, Writes.Result result) {
        for (String w : result.warnings()) {
            req.response().headers().add("Warning", "299 - \"" + w.replace("\"", "\\\"") + "\"");
        }
        ok(req, result.code(), result.json());
    }

    static void ok(HttpServerRequest req, int code, String body) {
        req.response()
                .setStatusCode(code)
                .putHeader("Content-Type", "application/json")
                .end(body);
    }

    private static void fail(HttpServerRequest req, int code, String reason, String message) {
        if (!req.response().ended()) {
            ok(req, code, ApiError.status(code, reason, message));
        }
    }

    @Override
    public void close() {
        try {
            if (server != null) {
                server.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            }
        } catch (Exception e) {
            LOG.debug("closing the API server", e);
        }
        vertx.close();
    }
}
