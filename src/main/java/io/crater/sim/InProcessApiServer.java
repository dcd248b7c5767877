package io.crater.sim;

import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.vertx.HttpServerRequestHandler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.logging.Logger;

/**
 * The simulated cluster's Kubernetes API server: a Vert.x HTTP host on 127.0.0.1 in front of fabric8's CRUD
 * store. It serves {@code pods/{name}/log} itself (with {@code follow} streamed chunk by chunk as the simulated
 * containers write), answers the pod subresources it does not simulate with a Kubernetes 405 Status instead of
 * the store's silently wrong answer, and hands every other request to the store.
 */
public final class InProcessApiServer implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(InProcessApiServer.class);
    private static final Pattern POD_SUBRESOURCE =
            Pattern.compile("^/api/v1/namespaces/([^/]+)/pods/([^/]+)/([a-z]+)$");
    private static final List<String> UNSERVED =
            List.of("exec", "attach", "portforward", "proxy", "binding", "eviction", "ephemeralcontainers", "resize");

    private final Vertx vertx;
    private final KubernetesCrudDispatcher store = new KubernetesCrudDispatcher(List.of());
    private final PodLogs logs;
    private HttpServer server;

    public InProcessApiServer(PodLogs logs) {
        this.vertx = Vertx.vertx();
        this.logs = logs;
    }

    /** Starts listening on 127.0.0.1 and the given port (0 = any free port); returns the base URL. */
    public String start(int port) {
        HttpServerRequestHandler toStore = new HttpServerRequestHandler(vertx) {
            @Override
            protected MockResponse onHttpRequest(RecordedRequest request) {
                return store.dispatch(request);
            }
        };
        try {
            server = vertx.createHttpServer(
                            new HttpServerOptions().setHost("127.0.0.1").setPort(port))
                    .requestHandler(req -> route(req, toStore))
                    .listen()
                    .toCompletionStage()
                    .toCompletableFuture()
                    .get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("the simulated cluster's API server could not start", e);
        }
        String url = "http://127.0.0.1:" + server.actualPort();
        LOG.infof("simulated Kubernetes API server listening on %s", url);
        return url;
    }

    private void route(HttpServerRequest req, HttpServerRequestHandler toStore) {
        Matcher m = POD_SUBRESOURCE.matcher(req.path());
        if (m.matches()) {
            String sub = m.group(3);
            if (sub.equals("log") && req.method().name().equals("GET")) {
                serveLog(req, m.group(1), m.group(2));
                return;
            }
            if (UNSERVED.contains(sub)) {
                status(req, 405, "MethodNotAllowed", "the simulated cluster does not serve pods/" + sub);
                return;
            }
        }
        toStore.handle(req);
    }

    private void serveLog(HttpServerRequest req, String namespace, String pod) {
        MockResponse existing = store.handleGet("/api/v1/namespaces/" + namespace + "/pods/" + pod);
        if (existing.code() != 200) {
            status(req, 404, "NotFound", "pods \"" + pod + "\" not found");
            return;
        }
        boolean follow = "true".equals(req.getParam("follow"));
        boolean timestamps = "true".equals(req.getParam("timestamps"));
        int tail;
        try {
            tail = req.getParam("tailLines") == null ? -1 : Integer.parseInt(req.getParam("tailLines"));
        } catch (NumberFormatException e) {
            status(req, 400, "BadRequest", "tailLines must be an integer");
            return;
        }
        var response = req.response().setChunked(true).putHeader("Content-Type", "text/plain");
        var context = vertx.getOrCreateContext();
        PodLogs.Follower follower = !follow
                ? null
                : new PodLogs.Follower() {
                    @Override
                    public void line(PodLogs.Line line) {
                        context.runOnContext(v -> {
                            if (!response.ended() && !response.closed()) {
                                response.write(format(line, timestamps));
                            }
                        });
                    }

                    @Override
                    public void end() {
                        context.runOnContext(v -> {
                            if (!response.ended() && !response.closed()) {
                                response.end();
                            }
                        });
                    }
                };
        List<PodLogs.Line> lines =
                logs.read(namespace, pod, tail, follower, unsubscribe -> response.closeHandler(v -> unsubscribe.run()));
        StringBuilder first = new StringBuilder();
        lines.forEach(l -> first.append(format(l, timestamps)));
        if (!first.isEmpty()) {
            response.write(first.toString());
        }
        if (!follow) {
            response.end();
        }
    }

    private static String format(PodLogs.Line line, boolean timestamps) {
        return timestamps
                ? DateTimeFormatter.ISO_INSTANT.format(line.time()) + " " + line.text() + "\n"
                : line.text() + "\n";
    }

    private static void status(HttpServerRequest req, int code, String reason, String message) {
        String body = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":\""
                + message.replace("\"", "\\\"") + "\",\"reason\":\"" + reason + "\",\"code\":" + code + "}";
        req.response()
                .setStatusCode(code)
                .putHeader("Content-Type", "application/json")
                .end(body);
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
