package io.crater.files;

import io.crater.identity.Caller;
import io.crater.platform.ApiException;
import io.crater.platform.AuditTrail;
import io.crater.platform.OnContext;
import io.crater.platform.Problem;
import io.crater.policy.FileAccess;
import io.crater.policy.FilePaths;
import io.crater.policy.FileQuota;
import io.crater.policy.Reason;
import io.quarkus.hibernate.reactive.panache.Panache;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Map;

/**
 * Changes inside spaces: folders made, entries moved and copied, each checked against the caller's access and the
 * destination's quota before anything moves, and recorded in the audit trail. Blocking (worker threads).
 */
@ApplicationScoped
class FileOps {

    @Inject
    FileSpaces spaces;

    @Inject
    SpaceUsage usage;

    @Inject
    AuditTrail audit;

    /** A checked path resolved in a space; a refused path is a 400 naming the field. */
    static SpaceFs.Resolved resolve(FileSpaces.Opened space, FilePaths.Checked path, String field) {
        if (!path.ok()) {
            throw ApiException.badRequest(
                    "InvalidPath", path.refusal(), List.of(new Problem.FieldError(field, path.refusal())));
        }
        return SpaceFs.resolve(space.root(), path.segments());
    }

    /** The entry at a path, or a 404. */
    static SpaceFs.Resolved existing(FileSpaces.Opened space, FilePaths.Checked path) {
        SpaceFs.Resolved r = resolve(space, path, "path");
        if (!r.exists()) {
            throw ApiException.notFound("nothing at " + r.display() + " in " + space.name());
        }
        return r;
    }

    FileViews.Entry mkdir(Caller caller, FileSpaces.Opened space, FilePaths.Checked path) {
        SpaceFs.Resolved r = resolve(space, path, "path");
        if (r.isRoot() || r.exists()) {
            throw ApiException.conflict("AlreadyExists", r.display() + " already exists in " + space.name());
        }
        parentMustExist(space, r);
        fits(space, 0, 1);
        try {
            SpaceFs.mkdir(r.path(), space.owner());
        } catch (java.nio.file.FileAlreadyExistsException e) {
            throw ApiException.conflict("AlreadyExists", r.display() + " already exists in " + space.name());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        usage.add(space, 0, 1);
        record(caller, "file.mkdir", space, r.display(), Map.of());
        return FileEntries.of(SpaceFs.resolve(space.root(), r.segments()));
    }

    /** Moves or copies an entry to a destination, refusing to replace anything unless asked (and never a folder). */
    FileViews.Entry transfer(Caller caller, FileSpaces.Opened from, FilePaths.Checked path, FileViews.Change change) {
        boolean copy = change.action().equals("copy");
        SpaceFs.Resolved src = existing(from, path);
        if (src.isRoot()) {
            throw ApiException.badRequest("InvalidPath", "the space's root cannot be moved or copied", null);
        }
        FileSpaces.Opened to = change.toSpace() == null || change.toSpace().equals(from.name())
                ? from
                : spaces.forWriting(caller, change.toSpace());
        SpaceFs.Resolved dst = resolve(to, FilePaths.check(change.to()), "to");
        checkDestination(from, src, to, dst, Boolean.TRUE.equals(change.overwrite()));
        FileQuota.Usage moved = SpaceUsage.entry(src);
        if (copy || to != from) {
            fits(to, moved.bytes(), moved.files());
        }
        replaceable(to, dst);
        try {
            if (copy) {
                copyTree(src.path(), dst.path(), to.owner());
            } else {
                Files.move(src.path(), dst.path(), StandardCopyOption.ATOMIC_MOVE);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (!copy) {
            usage.add(from, -moved.bytes(), -moved.files());
        }
        if (copy || to != from) {
            usage.add(to, moved.bytes(), moved.files());
        }
        record(
                caller,
                copy ? "file.copy" : "file.move",
                from,
                src.display(),
                Map.of("to", to.name() + ":" + dst.display()));
        return FileEntries.of(SpaceFs.resolve(to.root(), dst.segments()));
    }

    private static void checkDestination(
            FileSpaces.Opened from,
            SpaceFs.Resolved src,
            FileSpaces.Opened to,
            SpaceFs.Resolved dst,
            boolean overwrite) {
        if (dst.isRoot()) {
            throw ApiException.conflict("AlreadyExists", "the destination is the space's root");
        }
        if (from == to && src.folder() && dst.path().startsWith(src.path())) {
            throw ApiException.badRequest(
                    "InvalidPath",
                    "a folder cannot go inside itself",
                    List.of(new Problem.FieldError("to", "a folder cannot go inside itself")));
        }
        if (src.link()) {
            throw ApiException.badRequest(
                    "LinkNotFollowed", src.display() + " is a link; links are not copied or moved", null);
        }
        parentMustExist(to, dst);
        if (dst.exists() && (!overwrite || dst.folder() || src.folder())) {
            throw ApiException.conflict(
                    "AlreadyExists",
                    dst.display() + " already exists in " + to.name()
                            + (overwrite ? "; only a file replaces a file" : "; ask with overwrite to replace it"));
        }
    }

    /** Removes the file a move or copy with overwrite replaces (checked to be a file before). */
    private void replaceable(FileSpaces.Opened to, SpaceFs.Resolved dst) {
        if (dst.exists()) {
            try {
                Files.delete(dst.path());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            usage.add(to, -dst.attributes().size(), -1);
        }
    }

    static void parentMustExist(FileSpaces.Opened space, SpaceFs.Resolved r) {
        if (r.segments().size() > 1 && !Files.isDirectory(r.path().getParent(), SpaceFs.NOFOLLOW)) {
            throw ApiException.notFound("no folder "
                    + SpaceFs.display(r.segments().subList(0, r.segments().size() - 1)) + " in " + space.name());
        }
    }

    /**
     * Refuses (413, with the numbers) a write that would take the space over its quota, counting what unfinished
     * resumable uploads have reserved in it.
     */
    void fits(FileSpaces.Opened space, long bytes, long files) {
        TusQueries.Reserved held = OnContext.run(() -> Panache.withSession(() -> TusQueries.reserved(space.key())))
                .await()
                .indefinitely();
        Reason why =
                FileQuota.check(usage.of(space).plus(held.bytes(), held.files()), spaces.limit(space), bytes, files);
        if (why != null) {
            throw overQuota(why);
        }
    }

    static ApiException overQuota(Reason why) {
        return new ApiException(413, "FileQuotaExceeded", "Content too large", why.message(), List.of(why), null, null);
    }

    /** Copies a tree without following or copying links; new entries get the destination's modes and owner. */
    static void copyTree(Path from, Path to, SpaceFs.Owner owner) throws IOException {
        Files.walkFileTree(from, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                SpaceFs.mkdir(to.resolve(from.relativize(dir).toString()), owner);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                if (attrs.isRegularFile()) {
                    Path target = to.resolve(from.relativize(file).toString());
                    Files.copy(file, target, java.nio.file.LinkOption.NOFOLLOW_LINKS);
                    SpaceFs.own(target, owner, false);
                }
                return FileVisitResult.CONTINUE;
            }
        });
    }

    /** Records a change of a space in the audit trail, in a transaction of its own. */
    void record(Caller caller, String action, FileSpaces.Opened space, String path, Map<String, Object> after) {
        String account =
                space.space().kind() == FileAccess.Kind.ACCOUNT ? space.space().slug() : null;
        OnContext.run(() -> Panache.withTransaction(() ->
                        audit.record(caller.actor(account), action, "file", space.key() + ":" + path, null, after)))
                .await()
                .indefinitely();
    }
}
