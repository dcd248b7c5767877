package io.crater.files;

import io.crater.identity.Caller;
import io.crater.platform.ApiException;
import io.crater.platform.OnContext;
import io.crater.policy.FilePaths;
import io.crater.policy.FileQuota;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Each space's trash: a deleted entry moves (atomically, on the same claim) to {@code .trash/<space>/<id>/} beside
 * the spaces, outside every space so neither jobs nor SFTP see it, and a row remembers where it came from. It can be
 * restored (never over an existing entry) until the sweep removes it, {@link FilesConfig#trashDays()} later. The
 * trash does not count towards a space's quota.
 */
@ApplicationScoped
class Trash {

    private static final Logger LOG = Logger.getLogger(Trash.class);

    @Inject
    FilesConfig config;

    @Inject
    FileOps ops;

    @Inject
    SpaceUsage usage;

    @Inject
    Clock clock;

    private ScheduledExecutorService sweeper;

    void onStart(@Observes StartupEvent event) {
        sweeper = io.crater.platform.Threads.scheduler("crater-trash-sweep");
        long every = Math.max(1, config.sweepEvery().toSeconds());
        sweeper.scheduleWithFixedDelay(this::sweepQuietly, every, every, TimeUnit.SECONDS);
    }

    void onStop(@Observes ShutdownEvent event) {
        if (sweeper != null) {
            sweeper.shutdownNow();
        }
    }

    /** Moves an entry to its space's trash; a non-empty folder only when {@code recursive}. */
    FileViews.TrashEntry delete(Caller caller, FileSpaces.Opened space, FilePaths.Checked path, boolean recursive) {
        SpaceFs.Resolved r = FileOps.existing(space, path);
        if (r.isRoot()) {
            throw ApiException.badRequest("InvalidPath", "the space's root cannot be deleted", null);
        }
        if (r.folder() && !recursive && !empty(r.path())) {
            throw ApiException.conflict("FolderNotEmpty", r.display() + " is not empty; delete it with recursive=true");
        }
        FileQuota.Usage held = SpaceUsage.entry(r);
        String type = FileEntries.of(r).type();
        long id = OnContext.run(() -> Panache.withTransaction(() -> FileQueries.trash(
                        space.key(), r.display(), r.folder(), held.bytes(), held.files(), caller.userId())))
                .await()
                .indefinitely();
        Path dir = folder(space, id);
        try {
            Files.createDirectories(dir);
            Files.move(r.path(), dir.resolve(r.name()), StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            OnContext.run(() -> Panache.withTransaction(() -> FileQueries.forget(id)))
                    .await()
                    .indefinitely();
            throw new UncheckedIOException(e);
        }
        usage.add(space, -held.bytes(), -held.files());
        ops.record(caller, "file.delete", space, r.display(), Map.of("trash", id));
        return new FileViews.TrashEntry(
                id,
                r.display(),
                type,
                held.bytes(),
                held.files(),
                clock.instant(),
                clock.instant().plus(keep()));
    }

    List<FileViews.TrashEntry> list(FileSpaces.Opened space) {
        return OnContext.run(() -> Panache.withSession(() -> FileQueries.trashOf(space.key())))
                .await()
                .indefinitely()
                .stream()
                .map(this::view)
                .toList();
    }

    /** Puts a trashed entry back where it was; refuses when something is there now, or the quota is full. */
    FileViews.Entry restore(Caller caller, FileSpaces.Opened space, long id) {
        FileQueries.TrashRow row = OnContext.run(
                        () -> Panache.withSession(() -> FileQueries.trashEntry(space.key(), id)))
                .await()
                .indefinitely()
                .orElseThrow(() -> ApiException.notFound("no entry " + id + " in the trash of " + space.name()));
        SpaceFs.Resolved to = FileOps.resolve(space, FilePaths.check(row.originalPath()), "path");
        if (to.exists()) {
            throw ApiException.conflict(
                    "AlreadyExists", row.originalPath() + " exists again; move it away before restoring");
        }
        FileOps.parentMustExist(space, to);
        ops.fits(space, row.bytes(), row.files());
        Path from = folder(space, id).resolve(to.name());
        try {
            Files.move(from, to.path(), StandardCopyOption.ATOMIC_MOVE);
            Files.deleteIfExists(folder(space, id));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        OnContext.run(() -> Panache.withTransaction(() -> FileQueries.forget(id)))
                .await()
                .indefinitely();
        usage.add(space, row.bytes(), row.files());
        ops.record(caller, "file.restore", space, row.originalPath(), Map.of("trash", id));
        return FileEntries.of(SpaceFs.resolve(space.root(), to.segments()));
    }

    /** Removes what has been in a trash longer than the configured days; returns how many entries went. */
    int sweep() {
        List<FileQueries.TrashRow> expired = OnContext.run(() -> Panache.withSession(
                        () -> FileQueries.expired(clock.instant().minus(keep()))))
                .await()
                .indefinitely();
        for (FileQueries.TrashRow row : expired) {
            removeTree(config.spacesRoot()
                    .resolve(".trash")
                    .resolve(folderOf(row.space()))
                    .resolve(Long.toString(row.id())));
            OnContext.run(() -> Panache.withTransaction(() -> FileQueries.forget(row.id())))
                    .await()
                    .indefinitely();
        }
        return expired.size();
    }

    private void sweepQuietly() {
        try {
            int n = sweep();
            if (n > 0) {
                LOG.infof("removed %d expired trash entries", n);
            }
        } catch (RuntimeException e) {
            LOG.warn("the trash sweep failed; it runs again later", e);
        }
    }

    private Duration keep() {
        return Duration.ofDays(config.trashDays());
    }

    private FileViews.TrashEntry view(FileQueries.TrashRow r) {
        return new FileViews.TrashEntry(
                r.id(),
                r.originalPath(),
                r.folder() ? "folder" : "file",
                r.bytes(),
                r.files(),
                r.deletedAt(),
                r.deletedAt().plus(keep()));
    }

    private Path folder(FileSpaces.Opened space, long id) {
        return config.spacesRoot()
                .resolve(".trash")
                .resolve(folderOf(space.key()))
                .resolve(Long.toString(id));
    }

    /** The trash folder of a space key: {@code user:alice} → {@code users/alice}, {@code account:lab} → {@code accounts/lab}. */
    static String folderOf(String key) {
        if (key.startsWith("user:")) {
            return "users/" + key.substring(5);
        }
        if (key.startsWith("account:")) {
            return "accounts/" + key.substring(8);
        }
        return "public";
    }

    private static boolean empty(Path dir) {
        try (var s = Files.newDirectoryStream(dir)) {
            return !s.iterator().hasNext();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deletes a tree without following links (a link is removed, not its target). */
    static void removeTree(Path root) {
        if (!Files.exists(root, SpaceFs.NOFOLLOW)) {
            return;
        }
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.delete(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                    Files.delete(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
