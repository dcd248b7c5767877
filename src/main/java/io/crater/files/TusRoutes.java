package io.crater.files;

import io.crater.identity.Caller;
import io.crater.identity.CsrfFilter;
import io.crater.identity.CurrentUser;
import io.crater.platform.ApiException;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.file.AsyncFile;
import io.vertx.core.file.OpenOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.security.MessageDigest;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Resumable uploads over tus 1.0 (core, creation, termination, expiration, checksum) at {@code /api/v1/uploads}:
 * Vert.x routes, so a PATCH body streams into the upload's part file and is never buffered. Signed in as for the
 * file API (bearer token, or the console's cookie with the CSRF header); only the uploader sees an upload.
 */
@ApplicationScoped
class TusRoutes {

    static final String BASE = "/api/v1/uploads";

    @Inject
    Vertx vertx;

    @Inject
    CurrentUser current;

    @Inject
    TusUploads uploads;

    @Inject
    FilesConfig config;

    @Inject
    UploadProblems problems;

    void routes(@Observes Router router) {
        int order = FileUploads.ROUTE_ORDER;
        router.route(HttpMethod.OPTIONS, BASE).order(order).handler(this::options);
        router.route(HttpMethod.OPTIONS, BASE + "/:id").order(order).handler(this::options);
        router.route(HttpMethod.POST, BASE).order(order).handler(this::create);
        router.route(HttpMethod.HEAD, BASE + "/:id").order(order).handler(this::head);
        router.route(HttpMethod.PATCH, BASE + "/:id").order(order).handler(this::patch);
        router.route(HttpMethod.DELETE, BASE + "/:id").order(order).handler(this::terminate);
    }

    private void options(RoutingContext rc) {
        rc.response()
                .setStatusCode(204)
                .putHeader("Tus-Resumable", TusHeaders.VERSION)
                .putHeader("Tus-Version", TusHeaders.VERSION)
                .putHeader("Tus-Extension", TusHeaders.EXTENSIONS)
                .putHeader("Tus-Max-Size", Long.toString(config.tus().maxSize()))
                .putHeader("Tus-Checksum-Algorithm", TusHeaders.ALGORITHM_LIST)
                .end();
    }

    private void create(RoutingContext rc) {
        HttpServerRequest req = rc.request();
        blocking(
                rc,
                true,
                caller -> uploads.create(caller, req.getHeader("Upload-Length"), req.getHeader("Upload-Metadata")),
                (r, row) -> r.response()
                        .setStatusCode(201)
                        .putHeader("Location", BASE + "/" + row.id())
                        .putHeader("Upload-Expires", TusHeaders.date(row.expiresAt()))
                        .putHeader("Upload-Offset", Long.toString(row.offset()))
                        .end());
    }

    private void head(RoutingContext rc) {
        blocking(rc, false, caller -> uploads.mine(caller, rc.pathParam("id")), (r, row) -> {
            HttpServerResponse res = r.response()
                    .setStatusCode(200)
                    .putHeader("Cache-Control", "no-store")
                    .putHeader("Upload-Offset", Long.toString(row.offset()))
                    .putHeader("Upload-Length", Long.toString(row.length()))
                    .putHeader("Upload-Expires", TusHeaders.date(row.expiresAt()));
            if (row.metadata() != null && !row.metadata().isBlank()) {
                res.putHeader("Upload-Metadata", row.metadata());
            }
            res.end();
        });
    }

    private void terminate(RoutingContext rc) {
        blocking(
                rc,
                true,
                caller -> {
                    uploads.terminate(caller, rc.pathParam("id"));
                    return rc.pathParam("id");
                },
                (r, id) -> r.response().setStatusCode(204).end());
    }

    private void patch(RoutingContext rc) {
        HttpServerRequest req = rc.request();
        blocking(
                rc,
                true,
                caller -> {
                    String type = req.getHeader("Content-Type");
                    if (type == null || !type.trim().equalsIgnoreCase(TusHeaders.OFFSET_TYPE)) {
                        throw new ApiException(
                                415,
                                "UnsupportedMediaType",
                                "Unsupported media type",
                                "a PATCH sends Content-Type: " + TusHeaders.OFFSET_TYPE,
                                null,
                                null,
                                null);
                    }
                    long offset = TusHeaders.bytes("Upload-Offset", req.getHeader("Upload-Offset"));
                    TusHeaders.Checksum checksum = TusHeaders.checksum(req.getHeader("Upload-Checksum"));
                    return uploads.startPatch(caller, rc.pathParam("id"), offset, checksum);
                },
                this::receive);
    }

    /** On the event loop: appends the body to the part file at the stored offset, hashing it when asked to. */
    private void receive(RoutingContext rc, TusUploads.Patch p) {
        HttpServerRequest req = rc.request();
        OpenOptions open = new OpenOptions().setWrite(true).setCreate(false).setTruncateExisting(false);
        vertx.fileSystem().open(p.part().toString(), open, opened -> {
            if (opened.failed()) {
                worker(rc, () -> release(p), x -> problems.fail(rc, opened.cause()));
                return;
            }
            new Body(rc, p, opened.result()).start();
        });
    }

    /** One PATCH body on its way into the part file. */
    private final class Body {
        final RoutingContext rc;
        final TusUploads.Patch p;
        final AsyncFile file;
        final MessageDigest digest;
        final long room;
        long received;
        boolean settled;
        long renewal = -1;

        Body(RoutingContext rc, TusUploads.Patch p, AsyncFile file) {
            this.rc = rc;
            this.p = p;
            this.file = file;
            this.digest = p.checksum() == null ? null : p.checksum().digest();
            this.room = p.upload().length() - p.upload().offset();
        }

        void start() {
            HttpServerRequest req = rc.request();
            file.setWritePos(p.upload().offset());
            req.handler(this::chunk);
            // A body cut short keeps what arrived (tus core), unless a checksum was to vouch for all of it.
            req.exceptionHandler(e -> settle(
                    digest == null,
                    ApiException.badRequest(
                            "IncompleteUpload", "the body was cut short; Upload-Checksum cannot vouch for it", null)));
            req.endHandler(v -> end());
            if ("100-continue".equalsIgnoreCase(req.getHeader("Expect"))) {
                rc.response().writeContinue();
            }
            renewal = vertx.setPeriodic(Math.max(1, config.tus().lockFor().toMillis() / 4), t -> renew());
            req.resume();
        }

        /**
         * Renews the hold on the upload while the body flows, so another replica takes it over only when this one
         * died. A hold found lost (this replica could not renew it in time) ends the PATCH without touching the part
         * file, which its new holder now writes.
         */
        void renew() {
            if (settled) {
                return;
            }
            Uni.createFrom()
                    .item(() -> uploads.renew(p))
                    .runSubscriptionOn(Infrastructure.getDefaultWorkerPool())
                    .subscribe()
                    .with(
                            held -> {
                                if (!held) {
                                    vertx.runOnContext(v -> lost());
                                }
                            },
                            e -> {
                                // The database did not answer: the next renewal tries again.
                            });
        }

        void lost() {
            if (settled) {
                return;
            }
            settled = true;
            vertx.cancelTimer(renewal);
            file.close(closed -> problems.fail(
                    rc,
                    new ApiException(
                            423,
                            "UploadLocked",
                            "Locked",
                            "another PATCH took this upload over; continue from its offset (HEAD)",
                            null,
                            null,
                            null)));
        }

        void chunk(Buffer chunk) {
            if (settled) {
                return;
            }
            if (received + chunk.length() > room) {
                settle(
                        false,
                        new ApiException(
                                413,
                                "UploadLongerThanDeclared",
                                "Content too large",
                                "the body goes past Upload-Length " + p.upload().length() + "; nothing of it was kept",
                                null,
                                null,
                                null));
                return;
            }
            received += chunk.length();
            if (digest != null) {
                digest.update(chunk.getBytes());
            }
            file.write(chunk);
            if (file.writeQueueFull()) {
                rc.request().pause();
                file.drainHandler(v -> rc.request().resume());
            }
        }

        void end() {
            if (digest != null
                    && !MessageDigest.isEqual(digest.digest(), p.checksum().expected())) {
                settle(
                        false,
                        new ApiException(
                                460,
                                "ChecksumMismatch",
                                "Checksum mismatch",
                                "the body's " + p.checksum().algorithm()
                                        + " is not the one in Upload-Checksum; nothing of it was kept",
                                null,
                                null,
                                null));
            } else {
                settle(true, null);
            }
        }

        /** Once: closes the file, then stores the new offset ({@code keep}) or goes back to the old one. */
        void settle(boolean keep, ApiException refusal) {
            if (settled) {
                return;
            }
            settled = true;
            vertx.cancelTimer(renewal);
            file.close(closed -> {
                if (keep && closed.succeeded()) {
                    worker(
                            rc,
                            () -> uploads.commit(p, received),
                            offset -> rc.response()
                                    .setStatusCode(204)
                                    .putHeader("Upload-Offset", Long.toString(offset))
                                    .putHeader(
                                            "Upload-Expires",
                                            TusHeaders.date(p.upload().expiresAt()))
                                    .end());
                } else {
                    worker(rc, () -> release(p), x -> problems.fail(rc, refusal != null ? refusal : closed.cause()));
                }
            });
        }
    }

    private boolean release(TusUploads.Patch p) {
        uploads.release(p);
        return true;
    }

    /**
     * Signs the caller in, refuses a cookie-authenticated change without the CSRF header, checks
     * {@code Tus-Resumable}, runs {@code work} on a worker and hands its result to {@code then} on the event loop.
     */
    private <T> void blocking(
            RoutingContext rc, boolean changes, Function<Caller, T> work, BiConsumer<RoutingContext, T> then) {
        HttpServerRequest req = rc.request();
        req.pause();
        rc.response().putHeader("Tus-Resumable", TusHeaders.VERSION);
        String address =
                req.remoteAddress() == null ? "unknown" : req.remoteAddress().hostAddress();
        Uni<SecurityIdentity> identity = rc.get(QuarkusHttpUser.DEFERRED_IDENTITY_KEY);
        (identity == null ? Uni.createFrom().<SecurityIdentity>nullItem() : identity)
                .map(id -> new Caller(current.userOf(id), address))
                .emitOn(Infrastructure.getDefaultWorkerPool())
                .map(caller -> {
                    if (changes) {
                        csrf(req);
                    }
                    TusHeaders.resumable(req.getHeader("Tus-Resumable"));
                    return work.apply(caller);
                })
                .subscribe()
                .with(t -> vertx.runOnContext(v -> then.accept(rc, t)), e -> problems.fail(rc, e));
    }

    private <T> void worker(RoutingContext rc, Supplier<T> work, Consumer<T> then) {
        Uni.createFrom()
                .item(work)
                .runSubscriptionOn(Infrastructure.getDefaultWorkerPool())
                .subscribe()
                .with(t -> vertx.runOnContext(v -> then.accept(t)), e -> problems.fail(rc, e));
    }

    private static void csrf(HttpServerRequest req) {
        String refusal = CsrfFilter.refusal(
                req.cookies().stream().anyMatch(c -> CsrfFilter.sessionCookie(c.getName())),
                req.getHeader("Authorization"),
                req.getHeader("X-Requested-With"),
                req.getHeader("Origin"),
                req.getHeader("Host"));
        if (refusal != null) {
            throw ApiException.forbidden("CsrfCheckFailed", refusal);
        }
    }
}
