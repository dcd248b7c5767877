package io.crater.files;

import io.crater.identity.Caller;
import io.crater.identity.CurrentUser;
import io.crater.identity.TokenAuthMechanism;
import io.crater.platform.ApiException;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * WebDAV class 1 (RFC 4918) at {@code /dav/{space}/{path}} (docs/storage.md), a Vert.x route like the uploads so
 * bodies stream. Signed in with a personal access token (Basic password or bearer, never the console's cookie:
 * {@link TokenAuthMechanism}); the methods themselves are {@link DavOps}. No locks: LOCK and UNLOCK are 405.
 */
@ApplicationScoped
class DavRoute {

    static final String ALLOW = "OPTIONS, PROPFIND, PROPPATCH, GET, HEAD, PUT, MKCOL, MOVE, COPY, DELETE";
    static final String ALLOW_FOLDER = "OPTIONS, PROPFIND, PROPPATCH, MKCOL, MOVE, COPY, DELETE";

    /** The largest PROPFIND or PROPPATCH body read. */
    static final int MAX_XML = 1 << 20;

    private static final Set<String> METHODS =
            Set.of("PROPFIND", "PROPPATCH", "GET", "HEAD", "PUT", "MKCOL", "MOVE", "COPY", "DELETE");

    @Inject
    Vertx vertx;

    @Inject
    CurrentUser current;

    @Inject
    DavOps dav;

    @Inject
    FileUploads uploads;

    @Inject
    UploadProblems problems;

    void routes(@Observes Router router) {
        router.route(TokenAuthMechanism.DAV + "*")
                .order(FileUploads.ROUTE_ORDER)
                .handler(this::handle);
    }

    private void handle(RoutingContext rc) {
        HttpServerRequest req = rc.request();
        req.pause();
        String method = req.method().name();
        if (method.equals("OPTIONS") || !METHODS.contains(method)) {
            body(req).onComplete(x -> options(rc, method.equals("OPTIONS") ? 200 : 405));
            return;
        }
        if (method.equals("PUT")) {
            caller(rc)
                    .map(c -> dav.put(c, DavOps.target(req.path()), req.headers()))
                    .subscribe()
                    .with(u -> vertx.runOnContext(v -> receive(rc, u)), e -> failLater(rc, e));
            return;
        }
        body(req)
                .onSuccess(bytes -> caller(rc)
                        .map(c -> answer(method, c, rc, bytes))
                        .subscribe()
                        .with(reply -> vertx.runOnContext(v -> send(rc, reply)), e -> failLater(rc, e)))
                .onFailure(e -> problems.failDav(rc, e));
    }

    /** Blocking: one method's work. */
    private DavReply answer(String method, Caller c, RoutingContext rc, byte[] body) {
        HttpServerRequest req = rc.request();
        DavOps.Target t = DavOps.target(req.path());
        return switch (method) {
            case "PROPFIND" -> dav.propfind(c, t, req.headers(), body);
            case "PROPPATCH" -> dav.proppatch(c, t, body);
            case "GET", "HEAD" -> dav.get(c, t, req.headers());
            case "MKCOL" -> dav.mkcol(c, t, body);
            case "DELETE" -> dav.delete(c, t, req.headers());
            case "MOVE" -> dav.transfer(c, t, req.headers(), req.host(), false);
            case "COPY" -> dav.transfer(c, t, req.headers(), req.host(), true);
            default -> throw new IllegalStateException(method);
        };
    }

    /** The caller on a worker thread, or a 401 (with a Basic challenge) when no valid token came. */
    private Uni<Caller> caller(RoutingContext rc) {
        HttpServerRequest req = rc.request();
        String address =
                req.remoteAddress() == null ? "unknown" : req.remoteAddress().hostAddress();
        // A refused token is answered below (401 with a Basic challenge), not by the REST layer's failure handler.
        rc.put(QuarkusHttpUser.AUTH_FAILURE_HANDLER, (BiConsumer<RoutingContext, Throwable>) (ctx, e) -> {});
        Uni<SecurityIdentity> identity = rc.get(QuarkusHttpUser.DEFERRED_IDENTITY_KEY);
        return (identity == null ? Uni.createFrom().<SecurityIdentity>nullItem() : identity)
                .map(id -> new Caller(current.userOf(id), address))
                .emitOn(Infrastructure.getDefaultWorkerPool());
    }

    private void receive(RoutingContext rc, FileUploads.Upload u) {
        uploads.receive(rc, u, new FileUploads.Finish() {
            @Override
            public void done(FileViews.Entry entry) {
                rc.response().setStatusCode(u.replaced() < 0 ? 201 : 204).end();
            }

            @Override
            public void failed(Throwable e) {
                problems.failDav(rc, e);
            }
        });
    }

    private void options(RoutingContext rc, int status) {
        rc.response()
                .setStatusCode(status)
                .putHeader("DAV", "1")
                .putHeader("Allow", ALLOW)
                .putHeader("MS-Author-Via", "DAV")
                .putHeader("Content-Length", "0")
                .end();
    }

    private void send(RoutingContext rc, DavReply reply) {
        HttpServerResponse res = rc.response().setStatusCode(reply.status());
        reply.headers().forEach(res::putHeader);
        if (reply.file() != null) {
            if (rc.request().method().name().equals("HEAD")) {
                res.putHeader("Content-Length", Long.toString(reply.length())).end();
            } else {
                res.sendFile(reply.file().toString(), reply.offset(), reply.length())
                        .onFailure(e -> rc.request().connection().close());
            }
        } else if (reply.xml() != null) {
            res.putHeader("Content-Type", "application/xml; charset=utf-8").end(reply.xml());
        } else {
            res.end();
        }
    }

    private void failLater(RoutingContext rc, Throwable e) {
        vertx.runOnContext(v -> problems.failDav(rc, e));
    }

    /** Reads a small request body (PROPFIND's XML), refusing one over {@link #MAX_XML} bytes. */
    private static Future<byte[]> body(HttpServerRequest req) {
        Promise<byte[]> done = Promise.promise();
        Buffer buffer = Buffer.buffer();
        req.handler(chunk -> {
            if (buffer.length() + chunk.length() > MAX_XML) {
                done.tryFail(new ApiException(
                        413,
                        "BodyTooLarge",
                        "Content too large",
                        "a WebDAV request body may have at most " + MAX_XML + " bytes",
                        null,
                        null,
                        null));
            } else if (!done.future().isComplete()) {
                buffer.appendBuffer(chunk);
            }
        });
        req.exceptionHandler(done::tryFail);
        req.endHandler(v -> done.tryComplete(buffer.getBytes()));
        req.resume();
        return done.future();
    }
}
