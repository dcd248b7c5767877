package io.crater.interactive;

import io.crater.identity.Caller;
import io.crater.identity.TokenService;
import io.crater.job.JobNames;
import io.crater.job.PodAccess;
import io.crater.platform.Hashes;
import io.crater.platform.HeaderPolicy;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.logging.Logger;

/**
 * The app origins: a Vert.x server of its own where {@code <job>.<domain>} serves that job's web app, so the
 * user-controlled HTML and scripts of JupyterLab, code-server or TensorBoard never run on Crater's origin.
 * {@code /_crater/enter?ticket=} exchanges a ticket from {@code /open} for a host-only cookie; every other
 * request needs that cookie, from the job's owner (or an admin who opened it as admin), while the job runs.
 * Requests and responses stream through unbuffered, WebSockets are bridged frame by frame after an Origin check.
 * Crater's cookies, any {@code Authorization} and the client's {@code X-Forwarded-*} never reach the app; the
 * proxy sets its own forwarding headers and, for JupyterLab, the job's token.
 */
@ApplicationScoped
public class AppProxy {

    static final String COOKIE = "crater_app";
    private static final Logger LOG = Logger.getLogger(AppProxy.class);
    private static final Pattern PORT_PATH = Pattern.compile("^/port/([0-9]{1,5})(/.*)?$");

    @Inject
    Vertx vertx;

    @Inject
    AppConfig config;

    @Inject
    AppSessions sessions;

    @Inject
    PodAccess access;

    @Inject
    PodConnector connector;

    @Inject
    AppTokens tokens;

    @Inject
    io.crater.identity.AccessTokens tokenUsers;

    @Inject
    AppActivity activity;

    private HttpServer server;
    private HttpClient http;
    private WebSocketClient websockets;

    void onStart(@Observes @Priority(75) StartupEvent event) throws Exception {
        if (!config.enabled()) {
            return;
        }
        http = vertx.createHttpClient(new HttpClientOptions().setMaxPoolSize(64).setKeepAlive(true));
        websockets = vertx.createWebSocketClient();
        server = vertx.createHttpServer(
                        new HttpServerOptions().setHost(config.host()).setPort(config.port()))
                .requestHandler(this::handle)
                .listen()
                .toCompletionStage()
                .toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
        LOG.infof("app origins served at %s (listening on %s:%d)", origin("<job>"), config.host(), port());
    }

    void onStop(@Observes ShutdownEvent event) {
        if (server != null) {
            server.close();
        }
    }

    /** The port the app origins listen on. */
    public int port() {
        return server == null ? -1 : server.actualPort();
    }

    /** The origin of a job's apps, as browsers reach it. */
    public String origin(String job) {
        int port = config.publicPort().orElse(port());
        boolean defaultPort = port == 80 && config.publicScheme().equals("http")
                || port == 443 && config.publicScheme().equals("https");
        return config.publicScheme() + "://" + job + "." + config.domain() + (defaultPort ? "" : ":" + port);
    }

    /** Whether the app answers its readiness path (any answer below 500 but 404 counts as up). */
    public Uni<Boolean> ready(PodAccess.Target target, AppProfile profile) {
        return tokens.of(target, profile)
                .flatMap(token -> connector.address(target, profile.port()).map(addr -> Map.entry(addr, token)))
                .onItem()
                .transformToUni(at -> Uni.createFrom()
                        .completionStage(() -> http.request(new RequestOptions()
                                        .setServer(at.getKey())
                                        .setHost("localhost")
                                        .setPort(profile.port())
                                        .setURI(profile.readiness())
                                        .setTimeout(5000))
                                .compose(r -> {
                                    at.getValue().ifPresent(t -> r.putHeader("Authorization", "token " + t));
                                    return r.send();
                                })
                                .map(resp -> resp.statusCode() < 500 && resp.statusCode() != 404)
                                .toCompletionStage()))
                .onFailure()
                .recoverWithItem(false);
    }

    private void handle(HttpServerRequest req) {
        req.pause();
        String job = jobOf(
                req.authority() == null
                        ? req.getHeader("Host")
                        : req.authority().host());
        if (job == null) {
            plain(req, 404, "no app here: app origins are <job>." + config.domain());
            return;
        }
        String path = req.path();
        if (path == null || !AppHeaders.safe(path)) {
            plain(req, 400, "this path is not allowed");
            return;
        }
        if (path.equals("/_crater/enter")) {
            enter(req, job);
            return;
        }
        io.vertx.core.http.Cookie cookie = req.getCookie(COOKIE);
        if (cookie == null || cookie.getValue().isEmpty()) {
            plain(req, 401, "open this app from Crater's console");
            return;
        }
        checked(cookie.getValue(), job, req)
                .flatMap(t -> {
                    if (t == null) {
                        return Uni.createFrom().<Route>item(() -> null);
                    }
                    Route r = route(t, path, req.uri(), java.util.Optional.empty());
                    return tokens.of(t, r.profile()).map(token -> route(t, path, req.uri(), token));
                })
                .subscribe()
                .with(
                        route -> {
                            if (route == null) {
                                plain(req, 401, "this session has ended: open the app again from Crater's console");
                                return;
                            }
                            activity.seen(job);
                            if (isWebSocket(req)) {
                                websocket(req, job, route);
                            } else {
                                forward(req, route);
                            }
                        },
                        e -> plain(
                                req,
                                e instanceof io.crater.platform.ApiException a ? a.status() : 502,
                                e instanceof io.crater.platform.ApiException
                                        ? e.getMessage()
                                        : "the app is not reachable"));
    }

    /** A session's access as last checked, good until {@code until} ({@link System#nanoTime()}). */
    private record Checked(PodAccess.Target target, long until) {}

    /** Checked access per session and job (the cookie's hash); see {@link AppConfig#accessCheckTtl()}. */
    private final Map<String, Checked> checked = new ConcurrentHashMap<>();

    /**
     * The pod a session's request may reach: from {@link #checked} while that is fresh, else from the database (the
     * session, its user, the job's owner and state, the pod); null when the session is unknown or ended.
     */
    private Uni<PodAccess.Target> checked(String cookie, String job, HttpServerRequest req) {
        String key = Hashes.sha256Hex(cookie) + "/" + job;
        Checked c = checked.get(key);
        long now = System.nanoTime();
        if (c != null && now - c.until() < 0) {
            return Uni.createFrom().item(c.target());
        }
        return onContext(() -> sessions.find(cookie, job).flatMap(s -> {
                    if (s == null) {
                        return Uni.createFrom().<PodAccess.Target>nullItem();
                    }
                    return userOf(s.userId())
                            .flatMap(u ->
                                    access.resolveAppSession(job, new Caller(u, AppHeaders.remote(req)), s.asAdmin()));
                }))
                .invoke(t -> {
                    long ttl = config.accessCheckTtl().toNanos();
                    if (t != null && ttl > 0) {
                        if (checked.size() > 10_000) {
                            checked.values().removeIf(x -> now - x.until() >= 0);
                        }
                        checked.put(key, new Checked(t, now + ttl));
                    }
                });
    }

    /** A request's way to the pod: the target, its port, the path there, and the profile. */
    record Route(PodAccess.Target target, AppProfile profile, String uri, java.util.Optional<String> token) {}

    private Route route(PodAccess.Target target, String path, String uri, java.util.Optional<String> token) {
        Matcher m = PORT_PATH.matcher(path);
        if (m.matches()) {
            int port = Integer.parseInt(m.group(1));
            String rest = uri.substring(("/port/" + m.group(1)).length());
            return new Route(target, AppProfile.port(port), rest.isEmpty() ? "/" : rest, token);
        }
        AppProfile profile = AppProfile.of(target.kind())
                .orElseThrow(() -> new io.crater.platform.ApiException(
                        404, "NoApp", "Not found", "this job serves no app here; try /port/<n>/", null, null, null));
        return new Route(target, profile, uri, token);
    }

    private void enter(HttpServerRequest req, String job) {
        String ticket = req.getParam("ticket");
        if (ticket == null || ticket.length() > 100) {
            plain(req, 400, "a ticket is needed: open the app from Crater's console");
            return;
        }
        onContext(() -> sessions.enter(ticket, job))
                .subscribe()
                .with(
                        entered -> {
                            if (entered == null) {
                                plain(
                                        req,
                                        403,
                                        "this link was used already or has expired: open the app again from Crater's console");
                                return;
                            }
                            boolean secure = secure();
                            // Host-only (no Domain), script-proof, and not sent on cross-site subrequests.
                            String cookie =
                                    COOKIE + "=" + entered.token() + "; Path=/; HttpOnly; SameSite=Lax; Max-Age="
                                            + config.sessionTtl().toSeconds() + (secure ? "; Secure" : "");
                            own(req.response()
                                            .setStatusCode(303)
                                            .putHeader("Set-Cookie", cookie)
                                            .putHeader("Location", entered.path()))
                                    .end();
                        },
                        e -> {
                            LOG.warnf("entering the app of %s failed: %s", job, e.toString());
                            plain(req, 500, "entering failed");
                        });
    }

    private void forward(HttpServerRequest req, Route route) {
        connector
                .address(route.target(), route.profile().port())
                .subscribe()
                .with(
                        addr -> {
                            RequestOptions o = new RequestOptions()
                                    .setServer(addr)
                                    .setMethod(req.method())
                                    .setHost(
                                            req.authority() == null
                                                    ? "localhost"
                                                    : req.authority().host())
                                    .setPort(route.profile().port())
                                    .setURI(route.uri())
                                    .setHeaders(AppHeaders.forApp(req, route, config.publicScheme()));
                            http.request(o)
                                    .compose(creq -> {
                                        String length = req.getHeader("Content-Length");
                                        if (length != null) {
                                            creq.putHeader("Content-Length", length);
                                        } else if (req.getHeader("Transfer-Encoding") != null) {
                                            creq.setChunked(true);
                                        }
                                        req.resume();
                                        return creq.send(req);
                                    })
                                    .onSuccess(resp -> {
                                        var out = req.response().setStatusCode(resp.statusCode());
                                        resp.headers().forEach((k, v) -> {
                                            String n = k.toLowerCase(Locale.ROOT);
                                            if (n.equals("set-cookie") && !AppHeaders.hostOnly(v)) {
                                                return; // a parent-domain cookie would reach every job's origin
                                            }
                                            if (!AppHeaders.DROPPED.contains(n) || n.equals("content-length")) {
                                                out.headers().add(k, v);
                                            }
                                        });
                                        HeaderPolicy.appProxied(secure()).forEach((k, v) -> {
                                            if (!out.headers().contains(k)) {
                                                out.putHeader(k, v);
                                            }
                                        });
                                        if (resp.getHeader("Content-Length") == null) {
                                            out.setChunked(true);
                                        }
                                        resp.pipeTo(out);
                                    })
                                    .onFailure(e -> plain(req, 502, "the app did not answer: " + e.getMessage()));
                        },
                        e -> plain(req, 502, "the pod's port " + route.profile().port() + " is not reachable"));
    }

    private void websocket(HttpServerRequest req, String job, Route route) {
        String origin = req.getHeader("Origin");
        if (origin != null && !sameOrigin(origin, job)) {
            plain(req, 403, "a WebSocket from another site");
            return;
        }
        connector
                .address(route.target(), route.profile().port())
                .subscribe()
                .with(
                        addr -> {
                            WebSocketConnectOptions o = new WebSocketConnectOptions()
                                    .setHost(addr.host()) // the pod side; the Host header (in headers) stays the app
                                    // origin's
                                    .setPort(addr.port())
                                    .setURI(route.uri())
                                    .setHeaders(AppHeaders.forApp(req, route, config.publicScheme()));
                            String protocols = req.getHeader("Sec-WebSocket-Protocol");
                            if (protocols != null) {
                                o.setSubProtocols(List.of(protocols.split("\\s*,\\s*")));
                            }
                            o.getHeaders().remove("Sec-WebSocket-Key");
                            o.getHeaders().remove("Sec-WebSocket-Version");
                            o.getHeaders().remove("Sec-WebSocket-Extensions");
                            o.getHeaders().remove("Sec-WebSocket-Protocol");
                            websockets
                                    .connect(o)
                                    .onSuccess(back -> {
                                        // The app may speak first: hold its frames until the bridge is in place.
                                        back.pause();
                                        req.resume();
                                        req.toWebSocket()
                                                .onSuccess(front -> AppWebSockets.bridge(front, back))
                                                .onFailure(e -> back.close());
                                    })
                                    .onFailure(
                                            e -> plain(req, 502, "the app refused the WebSocket: " + e.getMessage()));
                        },
                        e -> plain(req, 502, "the pod's port " + route.profile().port() + " is not reachable"));
    }

    /** The job a host names, {@code <job>.<domain>}, or null. */
    String jobOf(String host) {
        if (host == null) {
            return null;
        }
        String h = host.toLowerCase(Locale.ROOT);
        int colon = h.lastIndexOf(':');
        if (colon > 0 && h.indexOf(']') < colon) {
            h = h.substring(0, colon);
        }
        String suffix = "." + config.domain().toLowerCase(Locale.ROOT);
        if (!h.endsWith(suffix)) {
            return null;
        }
        String job = h.substring(0, h.length() - suffix.length());
        return JobNames.isPublicId(job) ? job : null;
    }

    private boolean sameOrigin(String origin, String job) {
        try {
            URI o = URI.create(origin);
            URI mine = URI.create(origin(job));
            return o.getScheme().equals(mine.getScheme())
                    && o.getHost().equalsIgnoreCase(mine.getHost())
                    && port(o) == port(mine);
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static int port(URI u) {
        return u.getPort() >= 0 ? u.getPort() : u.getScheme().equals("https") ? 443 : 80;
    }

    private static boolean isWebSocket(HttpServerRequest req) {
        String upgrade = req.getHeader(HttpHeaders.UPGRADE);
        return upgrade != null && upgrade.equalsIgnoreCase("websocket");
    }

    private Uni<TokenService.TokenUser> userOf(long id) {
        return tokenUsers
                .activeUser(id)
                .map(u -> u.orElseThrow(() ->
                        io.crater.platform.ApiException.unauthorized("UserDisabled", "this account is disabled")));
    }

    /** Database work from the proxy's event loop, on a duplicated context of its own as Hibernate Reactive needs. */
    private <T> Uni<T> onContext(java.util.function.Supplier<Uni<T>> work) {
        return Uni.createFrom().emitter(em -> {
            io.vertx.core.Context dup =
                    io.smallrye.common.vertx.VertxContext.createNewDuplicatedContext(vertx.getOrCreateContext());
            io.quarkus.vertx.core.runtime.context.VertxContextSafetyToggle.setContextSafe(dup, true);
            dup.runOnContext(v -> Panache.withSession(work).subscribe().with(em::complete, em::fail));
        });
    }

    private void plain(HttpServerRequest req, int status, String message) {
        if (req.response().ended()) {
            return;
        }
        req.resume();
        var response = req.response().setStatusCode(status).putHeader("Content-Type", "text/plain; charset=utf-8");
        own(response).end(message + "\n");
    }

    /** Crater's own answer on an app origin, with its headers ({@link HeaderPolicy#appOwn}). */
    private io.vertx.core.http.HttpServerResponse own(io.vertx.core.http.HttpServerResponse response) {
        HeaderPolicy.appOwn(secure()).forEach(response::putHeader);
        return response;
    }

    private boolean secure() {
        return config.publicScheme().equals("https");
    }
}
