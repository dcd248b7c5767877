package io.crater.files;

import io.crater.identity.Caller;
import io.crater.platform.ApiException;
import io.crater.platform.OnContext;
import io.crater.policy.FilePaths;
import io.crater.policy.FileQuota;
import io.crater.policy.Reason;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * Resumable uploads (tus 1.0): an upload is a row holding its target, its offset and the quota it reserved, and a
 * part file in its space's staging folder ({@code .uploads/<space folder>/<id>} beside the spaces, on the same claim,
 * so neither listings nor usage walks see it). Any replica continues an upload from the offset in its row. When the
 * offset reaches the length the part file is moved over the target atomically and the reservation becomes usage;
 * terminating or expiring an upload removes its part and releases the reservation. Blocking (worker threads).
 */
@ApplicationScoped
class TusUploads {

    private static final Logger LOG = Logger.getLogger(TusUploads.class);

    @Inject
    FilesConfig config;

    @Inject
    FileSpaces spaces;

    @Inject
    FileOps ops;

    @Inject
    SpaceUsage usage;

    @Inject
    Clock clock;

    private ScheduledExecutorService sweeper;

    /** A PATCH that holds its upload: what it appends to, from where, and what its body must hash to. */
    record Patch(
            Caller caller,
            TusQueries.UploadRow upload,
            FileSpaces.Opened space,
            Path part,
            String token,
            TusHeaders.Checksum checksum) {}

    void onStart(@Observes StartupEvent event) {
        sweeper = io.crater.platform.Threads.scheduler("crater-upload-sweep");
        long every = Math.max(1, config.tus().sweepEvery().toSeconds());
        sweeper.scheduleWithFixedDelay(this::sweepQuietly, every, every, TimeUnit.SECONDS);
    }

    void onStop(@Observes ShutdownEvent event) {
        if (sweeper != null) {
            sweeper.shutdownNow();
        }
    }

    /** Creates an upload: checks the target and write access, reserves the quota for its length, makes the part. */
    TusQueries.UploadRow create(Caller caller, String lengthHeader, String metadataHeader) {
        long length = TusHeaders.bytes("Upload-Length", lengthHeader);
        if (length > config.tus().maxSize()) {
            throw new ApiException(
                    413,
                    "UploadTooLarge",
                    "Content too large",
                    "Upload-Length " + length + " is over the largest upload, "
                            + config.tus().maxSize() + " bytes",
                    null,
                    null,
                    null);
        }
        TusHeaders.Target target = TusHeaders.target(TusHeaders.metadata(metadataHeader));
        FileSpaces.Opened space = spaces.forWriting(caller, target.space());
        SpaceFs.Resolved to = FileOps.resolve(space, FilePaths.check(target.path()), "path");
        writable(to, target.overwrite());
        FileOps.parentMustExist(space, to);
        long replaced = to.exists() ? to.attributes().size() : 0;
        TusQueries.UploadRow row = new TusQueries.UploadRow(
                UUID.randomUUID().toString(),
                caller.userId(),
                target.space(),
                space.key(),
                to.display(),
                target.overwrite(),
                length,
                0,
                Math.max(0, length - replaced),
                to.exists() ? 0 : 1,
                metadataHeader,
                clock.instant().plus(config.tus().expireAfter()));
        Path part = part(row);
        try {
            Files.createDirectories(part.getParent());
            Files.createFile(part);
            SpaceFs.own(part, space.owner(), false);
            reserve(space, row);
        } catch (IOException e) {
            remove(part);
            throw new UncheckedIOException(e);
        } catch (RuntimeException e) {
            remove(part);
            throw e;
        }
        if (length == 0) {
            complete(caller, space, row);
        }
        return row;
    }

    private static void writable(SpaceFs.Resolved to, boolean overwrite) {
        if (to.isRoot() || to.folder() || to.link()) {
            throw ApiException.conflict(
                    "AlreadyExists", to.display() + " is a folder or a link; a file cannot replace it");
        }
        if (to.exists() && !overwrite) {
            throw ApiException.conflict(
                    "AlreadyExists", to.display() + " already exists; upload with overwrite to replace it");
        }
    }

    /** In one transaction, serialised per space: the quota check with every reservation, then this one's row. */
    private void reserve(FileSpaces.Opened space, TusQueries.UploadRow row) {
        FileQuota.Usage used = usage.of(space);
        FileQuota.Limit limit = spaces.limit(space);
        db(() -> Panache.withTransaction(() -> TusQueries.lockSpace(space.key())
                .flatMap(x -> TusQueries.reserved(space.key()))
                .flatMap(held -> {
                    Reason why = FileQuota.check(
                            used.plus(held.bytes(), held.files()), limit, row.reservedBytes(), row.reservedFiles());
                    return why == null
                            ? TusQueries.insert(row)
                            : Uni.createFrom().failure(FileOps.overQuota(why));
                })));
    }

    /** The caller's upload, or a 404 (also for anyone else's); 410 once it has expired. */
    TusQueries.UploadRow mine(Caller caller, String id) {
        TusQueries.UploadRow row = db(() -> Panache.withSession(() -> TusQueries.mine(id, caller.userId())))
                .orElseThrow(() -> ApiException.notFound("no upload " + id));
        if (row.expiresAt().isBefore(clock.instant())) {
            throw new ApiException(
                    410, "UploadExpired", "Gone", "the upload expired at " + row.expiresAt(), null, null, null);
        }
        return row;
    }

    /** Takes the upload for a PATCH at {@code offset}: 409 at another offset, 423 while another PATCH holds it. */
    Patch startPatch(Caller caller, String id, long offset, TusHeaders.Checksum checksum) {
        TusQueries.UploadRow row = mine(caller, id);
        FileSpaces.Opened space = spaces.forWriting(caller, row.spaceName());
        if (offset != row.offset()) {
            throw ApiException.conflict(
                    "OffsetMismatch", "the upload is at offset " + row.offset() + ", not " + offset);
        }
        String token = UUID.randomUUID().toString();
        Instant now = clock.instant();
        int taken = db(() -> Panache.withTransaction(
                () -> TusQueries.lock(id, token, now, now.minus(config.tus().lockFor()))));
        if (taken == 0) {
            throw new ApiException(
                    423, "UploadLocked", "Locked", "another PATCH is writing this upload", null, null, null);
        }
        Patch p = new Patch(caller, row, space, part(row), token, checksum);
        try {
            truncate(p.part(), row.offset());
        } catch (RuntimeException e) {
            release(p);
            throw e;
        }
        return p;
    }

    /** Stores the offset a PATCH reached; completes the upload when it reached the length. */
    long commit(Patch p, long received) {
        long offset = p.upload().offset() + received;
        int stored = db(() ->
                Panache.withTransaction(() -> TusQueries.advance(p.upload().id(), p.token(), offset)));
        if (stored == 0) {
            remove(p.part());
            throw ApiException.notFound("the upload was terminated or expired meanwhile");
        }
        if (offset == p.upload().length()) {
            complete(p.caller(), p.space(), p.upload());
        }
        return offset;
    }

    /** Renews the PATCH's hold on its upload; false when it was lost (another replica took the upload over). */
    boolean renew(Patch p) {
        return db(() -> Panache.withTransaction(
                        () -> TusQueries.renew(p.upload().id(), p.token(), clock.instant())))
                > 0;
    }

    /** Discards what a PATCH wrote (back to the stored offset) and lets the upload go. */
    void release(Patch p) {
        try {
            truncate(p.part(), p.upload().offset());
        } finally {
            db(() -> Panache.withTransaction(() -> TusQueries.unlock(p.upload().id(), p.token())));
        }
    }

    /** The atomic move onto the target, the reservation turned into usage, the audit trail. */
    private void complete(Caller caller, FileSpaces.Opened space, TusQueries.UploadRow row) {
        SpaceFs.Resolved to = FileOps.resolve(space, FilePaths.check(row.path()), "path");
        writable(to, row.overwrite());
        FileOps.parentMustExist(space, to);
        long replaced = to.exists() ? to.attributes().size() : -1;
        try {
            Files.move(part(row), to.path(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        db(() -> Panache.withTransaction(() -> TusQueries.forget(row.id())));
        usage.add(space, row.length() - Math.max(0, replaced), replaced < 0 ? 1 : 0);
        ops.record(caller, "file.upload", space, to.display(), Map.of("bytes", row.length(), "resumable", row.id()));
    }

    /** Terminates the caller's upload: its part removed, its reservation released. */
    void terminate(Caller caller, String id) {
        TusQueries.UploadRow row = db(() -> Panache.withSession(() -> TusQueries.mine(id, caller.userId())))
                .orElseThrow(() -> ApiException.notFound("no upload " + id));
        db(() -> Panache.withTransaction(() -> TusQueries.forget(row.id())));
        remove(part(row));
    }

    /** Removes the uploads past their {@code Upload-Expires}: parts removed, reservations released. */
    int sweep() {
        List<TusQueries.UploadRow> expired = db(() -> Panache.withSession(() -> TusQueries.expired(clock.instant())));
        for (TusQueries.UploadRow row : expired) {
            db(() -> Panache.withTransaction(() -> TusQueries.forget(row.id())));
            remove(part(row));
        }
        return expired.size();
    }

    private void sweepQuietly() {
        try {
            int n = sweep();
            if (n > 0) {
                LOG.infof("removed %d expired uploads", n);
            }
        } catch (RuntimeException e) {
            LOG.warn("the upload sweep failed; it runs again later", e);
        }
    }

    /** The part file of an upload, in its space's staging folder. */
    Path part(TusQueries.UploadRow row) {
        return config.spacesRoot()
                .resolve(".uploads")
                .resolve(Trash.folderOf(row.space()))
                .resolve(row.id());
    }

    private static void truncate(Path part, long size) {
        if (!Files.isRegularFile(part, SpaceFs.NOFOLLOW)) {
            throw ApiException.notFound("the upload's data is gone");
        }
        try (FileChannel ch = FileChannel.open(part, StandardOpenOption.WRITE)) {
            ch.truncate(size);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void remove(Path part) {
        try {
            Files.deleteIfExists(part);
        } catch (IOException e) {
            LOG.warnf(e, "could not remove the upload part %s", part);
        }
    }

    private static <T> T db(Supplier<Uni<T>> work) {
        return OnContext.run(work).await().indefinitely();
    }
}
