package io.crater.files;

import io.crater.identity.Caller;
import io.crater.identity.CsrfFilter;
import io.crater.identity.CurrentUser;
import io.crater.platform.ApiException;
import io.crater.policy.FilePaths;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.RouteConstants;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.core.Vertx;
import io.vertx.core.file.AsyncFile;
import io.vertx.core.file.OpenOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

/**
 * Uploads: {@code PUT /api/v1/files/{space}/{path}} with the file as the body, streamed to a temporary file beside
 * the target and moved over it atomically when complete. A Vert.x route, so the body is never buffered (the REST
 * layer caps bodies). The declared {@code Content-Length} is checked against the space's quota before a byte is
 * accepted; a body longer than declared is cut off and removed, a shorter one removed.
 */
@ApplicationScoped
class FileUploads {

    static final String PREFIX = "/api/v1/files/";

    /**
     * Where the routes that take files (this one, WebDAV, tus) sit among the HTTP layer's handlers: after sign-in,
     * before the body-size limit ({@code quarkus.http.limits.max-body-size}, 10 MiB), which is for the REST layer's
     * buffered bodies. These routes stream a body to disk and are bounded by the space's quota instead.
     */
    static final int ROUTE_ORDER = RouteConstants.ROUTE_ORDER_UPLOAD_LIMIT - 1;

    @Inject
    Vertx vertx;

    @Inject
    CurrentUser current;

    @Inject
    FileSpaces spaces;

    @Inject
    FileOps ops;

    @Inject
    SpaceUsage usage;

    @Inject
    UploadProblems problems;

    /** An upload accepted to start: where it goes and what it declared. */
    record Upload(
            Caller caller,
            FileSpaces.Opened space,
            SpaceFs.Resolved target,
            Path temporary,
            long declared,
            long replaced) {}

    void routes(@Observes Router router) {
        router.put(PREFIX + "*").order(ROUTE_ORDER).handler(this::handle);
    }

    private void handle(RoutingContext rc) {
        HttpServerRequest req = rc.request();
        req.pause();
        String address =
                req.remoteAddress() == null ? "unknown" : req.remoteAddress().hostAddress();
        Uni<SecurityIdentity> identity = rc.get(QuarkusHttpUser.DEFERRED_IDENTITY_KEY);
        (identity == null ? Uni.createFrom().<SecurityIdentity>nullItem() : identity)
                .map(id -> new Caller(current.userOf(id), address))
                .emitOn(Infrastructure.getDefaultWorkerPool())
                .map(caller -> prepare(caller, rc))
                .subscribe()
                .with(
                        u -> vertx.runOnContext(v -> receive(rc, u, new Finish() {
                            @Override
                            public void done(FileViews.Entry entry) {
                                problems.created(rc, entry);
                            }

                            @Override
                            public void failed(Throwable e) {
                                problems.fail(rc, e);
                            }
                        })),
                        e -> problems.fail(rc, e));
    }

    /** Blocking: every check that can refuse the upload, then the empty temporary file. */
    private Upload prepare(Caller caller, RoutingContext rc) {
        HttpServerRequest req = rc.request();
        String csrf = CsrfFilter.refusal(
                req.cookies().stream().anyMatch(c -> CsrfFilter.sessionCookie(c.getName())),
                req.getHeader("Authorization"),
                req.getHeader("X-Requested-With"),
                req.getHeader("Origin"),
                req.getHeader("Host"));
        if (csrf != null) {
            throw ApiException.forbidden("CsrfCheckFailed", csrf);
        }
        String rest = req.path().substring(PREFIX.length());
        int slash = rest.indexOf('/');
        String spaceName = FilePaths.fromUrl(slash < 0 ? rest : rest.substring(0, slash))
                .display()
                .substring(1);
        FileSpaces.Opened space = spaces.forWriting(caller, spaceName);
        SpaceFs.Resolved target =
                FileOps.resolve(space, FilesResource.checked(slash < 0 ? "" : rest.substring(slash)), "path");
        long declared = declared(req.getHeader("Content-Length"));
        boolean overwrite = "true".equals(req.getParam("overwrite"));
        if (target.isRoot() || target.folder() || target.link()) {
            throw ApiException.conflict(
                    "AlreadyExists", target.display() + " is a folder or a link; a file cannot replace it");
        }
        if (target.exists() && !overwrite) {
            throw ApiException.conflict(
                    "AlreadyExists", target.display() + " already exists; upload with overwrite=true to replace it");
        }
        return start(caller, space, target, declared);
    }

    /**
     * Blocking: the quota check against the declared size and the empty temporary file beside the target, for an
     * upload whose target the caller has already checked (the file API's rules above, WebDAV's in {@link DavOps}).
     */
    Upload start(Caller caller, FileSpaces.Opened space, SpaceFs.Resolved target, long declared) {
        FileOps.parentMustExist(space, target);
        long replaced = target.exists() ? target.attributes().size() : 0;
        ops.fits(space, declared - replaced, target.exists() ? 0 : 1);
        Path temporary = target.path().resolveSibling(FileEntries.UPLOAD_PREFIX + UUID.randomUUID());
        try {
            Files.createFile(temporary);
            SpaceFs.own(temporary, space.owner(), false);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return new Upload(caller, space, target, temporary, declared, target.exists() ? replaced : -1);
    }

    static long declared(String header) {
        try {
            long n = header == null ? -1 : Long.parseLong(header.trim());
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new ApiException(
                411,
                "LengthRequired",
                "Length required",
                "an upload must declare its size in Content-Length",
                null,
                null,
                null);
    }

    /** How an upload's answer is given: the file API's JSON entry, or WebDAV's bare 201/204. */
    interface Finish {
        void done(FileViews.Entry entry);

        void failed(Throwable e);
    }

    /** On the event loop: streams the body into the temporary file, counting, with back-pressure. */
    void receive(RoutingContext rc, Upload u, Finish finish) {
        HttpServerRequest req = rc.request();
        vertx.fileSystem()
                .open(u.temporary().toString(), new OpenOptions().setWrite(true).setCreate(false), opened -> {
                    if (opened.failed()) {
                        discard(u);
                        finish.failed(opened.cause());
                        return;
                    }
                    AsyncFile file = opened.result();
                    long[] received = {0};
                    boolean[] cut = {false};
                    req.handler(chunk -> {
                        received[0] += chunk.length();
                        if (received[0] > u.declared()) {
                            if (!cut[0]) {
                                cut[0] = true;
                                file.close();
                                discard(u);
                                finish.failed(UploadProblems.tooLong(u.declared()));
                            }
                            return;
                        }
                        file.write(chunk);
                        if (file.writeQueueFull()) {
                            req.pause();
                            file.drainHandler(v -> req.resume());
                        }
                    });
                    req.exceptionHandler(e -> {
                        file.close();
                        discard(u);
                    });
                    req.endHandler(v -> {
                        if (!cut[0]) {
                            file.close(
                                    closed -> finish(u, received[0], closed.failed() ? closed.cause() : null, finish));
                        }
                    });
                    if ("100-continue".equalsIgnoreCase(req.getHeader("Expect"))) {
                        rc.response().writeContinue();
                    }
                    req.resume();
                });
    }

    private void finish(Upload u, long received, Throwable failed, Finish finish) {
        if (failed != null || received != u.declared()) {
            discard(u);
            finish.failed(
                    failed != null
                            ? failed
                            : ApiException.badRequest(
                                    "IncompleteUpload",
                                    "the body had " + received + " bytes, " + u.declared() + " were declared",
                                    null));
            return;
        }
        Uni.createFrom()
                .item(() -> complete(u))
                .runSubscriptionOn(Infrastructure.getDefaultWorkerPool())
                .subscribe()
                .with(entry -> vertx.runOnContext(v -> finish.done(entry)), e -> {
                    discard(u);
                    vertx.runOnContext(v -> finish.failed(e));
                });
    }

    /** Blocking: the atomic move over the target, the usage and the audit trail. */
    private FileViews.Entry complete(Upload u) {
        try {
            if (u.replaced() < 0 && Files.exists(u.target().path(), SpaceFs.NOFOLLOW)) {
                throw ApiException.conflict("AlreadyExists", u.target().display() + " was created meanwhile");
            }
            Files.move(
                    u.temporary(),
                    u.target().path(),
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE,
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        usage.add(u.space(), u.declared() - Math.max(0, u.replaced()), u.replaced() < 0 ? 1 : 0);
        ops.record(u.caller(), "file.upload", u.space(), u.target().display(), java.util.Map.of("bytes", u.declared()));
        return FileEntries.of(SpaceFs.resolve(u.space().root(), u.target().segments()));
    }

    private static void discard(Upload u) {
        try {
            Files.deleteIfExists(u.temporary());
        } catch (java.io.IOException ignored) {
            // a leftover temporary file is hidden from listings and removed with its folder
        }
    }
}
