package io.crater.sim.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.ServerWebSocket;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The app a simulated pod of one of Crater's interactive kinds serves on its app port, so that opening a notebook
 * or VS Code on the embedded default shows a page instead of an error. It runs in Crater's process, never as a
 * host process: one HTTP/1.1 server on 127.0.0.1 that port-forwarded connections are piped to. Which pod a
 * connection is for is told by {@link #claim} under the local port of the piped connection, so the bytes reach it
 * untouched, as they would reach the container.
 *
 * <p>Per kind it answers the readiness path Crater's manifests probe (JupyterLab: {@code <base>/api}, where the
 * base is the container's {@code --ServerApp.base_url}; code-server: {@code /healthz}; TensorBoard:
 * {@code /data/logdir}, and {@code /data/runs} with the runs in its mounted log folders) with JSON, JupyterLab's root
 * {@code <base>/} with a redirect to {@code <base>/lab} as JupyterLab does, any other GET with a small page naming the pod and the path and a script that talks to a WebSocket echo at
 * {@code <base>/sim/echo}. It keeps the headers of each pod's last {@value #KEPT} requests, so tests can check
 * what Crater's proxy lets through.
 */
final class SimApp {

    static final int KEPT = 32;

    /** A kind of job the app stands in for, on the container port Crater's manifests give it. */
    enum Kind {
        JUPYTER("jupyter", 8888, "JupyterLab"),
        WEBIDE("webide", 8080, "VS Code (code-server)"),
        TENSORBOARD("tensorboard", 6006, "TensorBoard");

        final String label;
        final int port;
        final String title;

        Kind(String label, int port, String title) {
            this.label = label;
            this.port = port;
            this.title = title;
        }
    }

    /**
     * The pod a connection is for; {@code base} is the path prefix the app serves under ("" for none), {@code logDirs}
     * the folders a TensorBoard reads (empty for the other kinds).
     */
    record Pod(String namespace, String name, Kind kind, String base, List<SimTensorboard.LogDir> logDirs) {

        String readinessPath() {
            return switch (kind) {
                case JUPYTER -> base + "/api";
                case WEBIDE -> "/healthz";
                case TENSORBOARD -> "/data/logdir";
            };
        }

        String echoPath() {
            return base + "/sim/echo";
        }
    }

    private static final String BASE_URL_FLAG = "--ServerApp.base_url=";

    private final Vertx vertx;
    private final Map<Integer, Pod> claims = new ConcurrentHashMap<>();
    private final Map<String, Deque<AppRequest>> requests = new ConcurrentHashMap<>();
    private HttpServer server;

    SimApp(Vertx vertx) {
        this.vertx = vertx;
    }

    /** The app a pod serves on a port, or null when it serves none there; {@code claims}: claims' host folders. */
    static Pod servedBy(JsonNode pod, int port, Function<String, Path> claims) {
        String label = pod.path("metadata").path("labels").path(SimLabels.KIND).asText("");
        for (Kind kind : Kind.values()) {
            if (kind.label.equals(label) && kind.port == port) {
                return new Pod(
                        pod.path("metadata").path("namespace").asText(),
                        pod.path("metadata").path("name").asText(),
                        kind,
                        kind == Kind.JUPYTER ? baseUrl(pod) : "",
                        kind == Kind.TENSORBOARD ? SimTensorboard.logDirs(pod, claims) : List.of());
            }
        }
        return null;
    }

    /**
     * JupyterLab's {@code ServerApp.base_url} from the container's command line (the last one wins, as in Jupyter),
     * without its trailing slash; "" when it has none.
     */
    private static String baseUrl(JsonNode pod) {
        String base = "";
        for (JsonNode container : pod.path("spec").path("containers")) {
            for (String field : List.of("command", "args")) {
                for (JsonNode word : container.path(field)) {
                    if (word.asText().startsWith(BASE_URL_FLAG)) {
                        String value = word.asText().substring(BASE_URL_FLAG.length());
                        base = (value.startsWith("/") ? value : "/" + value).replaceAll("/+$", "");
                    }
                }
            }
        }
        return base;
    }

    Future<HttpServer> start() {
        server = vertx.createHttpServer(
                        new HttpServerOptions().setHost("127.0.0.1").setPort(0).setHttp2ClearTextEnabled(false))
                .connectionHandler(c -> {
                    int client = c.remoteAddress().port();
                    c.closeHandler(v -> claims.remove(client));
                })
                .requestHandler(this::handle);
        return server.listen();
    }

    int port() {
        return server.actualPort();
    }

    /** Says which pod the connection from {@code clientPort} (on 127.0.0.1) is for, until it closes. */
    void claim(int clientPort, Pod pod) {
        claims.put(clientPort, pod);
    }

    /** The last requests the pod's app received, oldest first. */
    List<AppRequest> requests(String namespace, String pod) {
        Deque<AppRequest> kept = requests.get(namespace + "/" + pod);
        if (kept == null) {
            return List.of();
        }
        synchronized (kept) {
            return List.copyOf(kept);
        }
    }

    /** Forgets what a pod's app received (the pod is gone). */
    void forget(String namespace, String pod) {
        requests.remove(namespace + "/" + pod);
    }

    private void handle(HttpServerRequest req) {
        Pod pod = claims.get(req.connection().remoteAddress().port());
        if (pod == null) {
            // Not a forwarded connection: something else on this host found the port.
            req.connection().close();
            return;
        }
        record(pod, req);
        if (req.path().equals(pod.echoPath()) && "websocket".equalsIgnoreCase(req.getHeader("Upgrade"))) {
            req.toWebSocket().onSuccess(SimApp::echo);
            return;
        }
        if (req.method() != HttpMethod.GET && req.method() != HttpMethod.HEAD) {
            req.response().setStatusCode(405).putHeader("Allow", "GET, HEAD").end();
            return;
        }
        if (pod.kind() == Kind.TENSORBOARD && tensorboard(pod, req)) {
            return;
        }
        if (req.path().equals(pod.readinessPath())) {
            String body = pod.kind() == Kind.JUPYTER
                    ? "{\"version\":\"simulated\"}"
                    : "{\"status\":\"alive\",\"lastHeartbeat\":" + System.currentTimeMillis() + "}";
            req.response().putHeader("Content-Type", "application/json").end(body);
            return;
        }
        if (pod.kind() == Kind.JUPYTER && req.path().equals(pod.base() + "/")) {
            // JupyterLab sends its root to its default page (jupyter_server's default_url).
            req.response()
                    .setStatusCode(302)
                    .putHeader("Location", pod.base() + "/lab")
                    .end();
            return;
        }
        req.response().putHeader("Content-Type", "text/html; charset=utf-8").end(page(pod, req.uri()));
    }

    /**
     * TensorBoard's own answers: {@code /data/logdir} (its readiness path) with the spec it was started with,
     * {@code /data/runs} with the runs found in the mounted folders (read at each request, as TensorBoard reloads).
     */
    private static boolean tensorboard(Pod pod, HttpServerRequest req) {
        String body;
        if (req.path().equals("/data/logdir")) {
            body = "{\"logdir\":"
                    + json(String.join(
                            ",",
                            pod.logDirs().stream()
                                    .map(d -> d.name() + ":" + d.path())
                                    .toList()))
                    + "}";
        } else if (req.path().equals("/data/runs")) {
            body = "["
                    + String.join(
                            ",",
                            SimTensorboard.runs(pod.logDirs()).stream()
                                    .map(SimApp::json)
                                    .toList())
                    + "]";
        } else {
            return false;
        }
        req.response().putHeader("Content-Type", "application/json").end(body);
        return true;
    }

    private static String json(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c < 0x20) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.append('"').toString();
    }

    private void record(Pod pod, HttpServerRequest req) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        req.headers()
                .forEach(h -> headers.computeIfAbsent(h.getKey().toLowerCase(), k -> new ArrayList<>())
                        .add(h.getValue()));
        headers.replaceAll((k, v) -> List.copyOf(v));
        AppRequest seen = new AppRequest(req.method().name(), req.uri(), Collections.unmodifiableMap(headers));
        Deque<AppRequest> kept = requests.computeIfAbsent(pod.namespace() + "/" + pod.name(), k -> new ArrayDeque<>());
        synchronized (kept) {
            kept.addLast(seen);
            if (kept.size() > KEPT) {
                kept.removeFirst();
            }
        }
    }

    private static void echo(ServerWebSocket ws) {
        ws.textMessageHandler(ws::writeTextMessage);
        ws.binaryMessageHandler(ws::writeBinaryMessage);
    }

    private static String page(Pod pod, String uri) {
        String title = "Simulated " + pod.kind().title;
        return "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>" + title + " · " + escape(pod.name())
                + "</title></head>\n<body data-echo=\"" + escape(pod.echoPath()) + "\">\n<h1>" + title + "</h1>\n"
                + "<p>This is the simulated cluster's stand-in for " + pod.kind().title + " in pod <code>"
                + escape(pod.namespace() + "/" + pod.name()) + "</code>: no real app runs here.</p>\n"
                + "<p>Requested: <code>" + escape(uri) + "</code></p>\n"
                + (pod.kind() == Kind.TENSORBOARD
                        ? "<p>Runs: <code>" + escape(String.join(", ", SimTensorboard.runs(pod.logDirs())))
                                + "</code></p>\n"
                        : "")
                + "<p>WebSocket echo: <output id=\"echo\">connecting…</output></p>\n"
                + "<script>\n"
                + "const out = document.getElementById('echo');\n"
                + "const ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host"
                + " + document.body.dataset.echo);\n"
                + "ws.onopen = () => ws.send('hello from ' + location.pathname);\n"
                + "ws.onmessage = e => { out.textContent = 'echoed: ' + e.data; };\n"
                + "ws.onerror = () => { out.textContent = 'failed'; };\n"
                + "</script>\n</body></html>\n";
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;")
                .replace("<", "&lt;")
                .replace(">", "&gt;")
                .replace("\"", "&quot;")
                .replace("'", "&#39;");
    }
}
