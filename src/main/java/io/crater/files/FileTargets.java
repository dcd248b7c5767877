package io.crater.files;

import io.crater.identity.Caller;
import io.crater.platform.ApiException;
import io.crater.policy.FileAccess;
import io.crater.policy.FilePaths;
import io.crater.policy.FileQuota;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * A folder or file that another feature points at (a dataset, a model): checked through the same resolver and
 * access rules as the file API, and measured. Blocking: call from a worker thread.
 */
@ApplicationScoped
public class FileTargets {

    @Inject
    FileSpaces spaces;

    @Inject
    FilesConfig config;

    /**
     * What a path points at.
     *
     * @param space the space by a name that does not depend on who reads it ({@code user:alice},
     *     {@code account:lab}, {@code public})
     * @param path the normalised path inside it ({@code /imagenet}, {@code /} for the whole space)
     * @param type {@code folder} or {@code file}
     * @param sizeBytes the bytes of the regular files in it (a file's own size)
     * @param files the entries in it, itself included
     */
    public record Target(String space, String path, String type, long sizeBytes, long files) {

        /** Where it lies on the shared claim, as a pod's {@code subPath} ({@code users/alice/imagenet}). */
        public String claimPath() {
            return claimPath(space, path);
        }

        public static String claimPath(String space, String path) {
            FileAccess.Space s = stored(space);
            if (s == null) {
                throw new IllegalArgumentException("not a stored space name: " + space);
            }
            return path.equals("/") ? s.folder() : s.folder() + path;
        }
    }

    /** A target, or why it cannot be one: the field ({@code space} or {@code path}) and the message. */
    public record Inspected(Target target, String field, String refusal) {
        public boolean ok() {
            return target != null;
        }

        static Inspected refused(String field, String why) {
            return new Inspected(null, field, why);
        }
    }

    /**
     * The path as the caller may read it: {@code space} as the file API names it ({@code user} is the caller's
     * own). A space the caller may not read is refused exactly like one that does not exist.
     */
    public Inspected inspect(Caller caller, String space, String path) {
        FileSpaces.Opened opened;
        try {
            opened = spaces.forReading(caller, space);
        } catch (ApiException e) {
            return Inspected.refused("space", "no file space '" + space + "' you may read");
        }
        String name = opened.space().kind() == FileAccess.Kind.USER
                ? "user:" + opened.space().slug()
                : opened.space().name();
        return look(name, opened.root(), path);
    }

    /** Measures a stored target again (its space by the name {@link Target#space()} gives), for no one in particular. */
    public Inspected measure(String space, String path) {
        FileAccess.Space s = stored(space);
        Path dir = s == null ? null : config.spacesRoot().resolve(s.folder());
        if (dir == null || !Files.isDirectory(dir, SpaceFs.NOFOLLOW)) {
            return Inspected.refused("space", "the space '" + space + "' is not there any more");
        }
        try {
            return look(space, dir.toRealPath(), path);
        } catch (IOException e) {
            return Inspected.refused("space", "the space '" + space + "' cannot be read");
        }
    }

    private static Inspected look(String space, Path root, String path) {
        FilePaths.Checked checked = FilePaths.check(path == null ? "" : path);
        if (!checked.ok()) {
            return Inspected.refused("path", checked.refusal());
        }
        SpaceFs.Resolved r;
        try {
            r = SpaceFs.resolve(root, checked.segments());
        } catch (ApiException e) {
            return Inspected.refused("path", e.getMessage() == null ? "not found in this space" : e.getMessage());
        }
        if (!r.exists()) {
            return Inspected.refused("path", "nothing at " + r.display() + " in this space");
        }
        if (r.link()) {
            return Inspected.refused("path", r.display() + " is a link, which is never followed");
        }
        if (!r.folder() && !r.attributes().isRegularFile()) {
            return Inspected.refused("path", r.display() + " is neither a folder nor a file");
        }
        FileQuota.Usage usage = SpaceUsage.entry(r);
        return new Inspected(
                new Target(space, r.display(), r.folder() ? "folder" : "file", usage.bytes(), usage.files()),
                null,
                null);
    }

    /**
     * A folder a job is to write into (a download's target), or why not: {@code space} as the file API names it, which
     * the caller must be able to write (the public space never); {@code path} normalised, not the space's root, with
     * no link or file on the way. The folder need not exist yet; when it does and {@code mayHaveFiles} is false, it
     * must be empty.
     */
    public Inspected writable(Caller caller, String space, String path, boolean mayHaveFiles) {
        FileSpaces.Opened opened;
        try {
            opened = spaces.forWriting(caller, space);
        } catch (ApiException e) {
            return Inspected.refused("space", "no file space '" + space + "' you may write");
        }
        if (opened.space().kind() == FileAccess.Kind.PUBLIC) {
            return Inspected.refused("space", "downloads go into your own space or an account's");
        }
        FilePaths.Checked checked = FilePaths.check(path == null ? "" : path);
        if (!checked.ok() || checked.segments().isEmpty()) {
            return Inspected.refused(
                    "path", checked.ok() ? "a folder inside the space, not its root" : checked.refusal());
        }
        Path at = opened.root();
        for (String segment : checked.segments()) {
            at = at.resolve(segment);
            if (Files.isSymbolicLink(at)) {
                return Inspected.refused("path", "/" + segment + " is a link, which is never followed");
            }
            if (Files.exists(at, SpaceFs.NOFOLLOW) && !Files.isDirectory(at, SpaceFs.NOFOLLOW)) {
                return Inspected.refused("path", checked.display() + " passes through a file");
            }
        }
        if (!mayHaveFiles && Files.isDirectory(at, SpaceFs.NOFOLLOW)) {
            try (var entries = Files.list(at)) {
                if (entries.findAny().isPresent()) {
                    return Inspected.refused("path", checked.display() + " exists and is not empty");
                }
            } catch (IOException e) {
                return Inspected.refused("path", checked.display() + " cannot be read");
            }
        }
        String name = opened.space().kind() == FileAccess.Kind.USER
                ? "user:" + opened.space().slug()
                : opened.space().name();
        return new Inspected(new Target(name, checked.display(), "folder", 0, 0), null, null);
    }

    /**
     * Where a stored target lies on this host (under the spaces' root), or null when its space is unknown. The path
     * is not checked for links: read it without following them.
     */
    public Path hostPath(String space, String path) {
        FileAccess.Space s = stored(space);
        if (s == null) {
            return null;
        }
        Path root = config.spacesRoot().resolve(s.folder()).normalize();
        Path p = path.equals("/") ? root : root.resolve(path.substring(1)).normalize();
        return p.startsWith(root) ? p : null;
    }

    /** A space by its stored name: {@code user:<slug>}, {@code account:<slug>}, {@code public}; null otherwise. */
    static FileAccess.Space stored(String name) {
        if (name != null && name.startsWith("user:")) {
            FileAccess.Space s =
                    FileAccess.parse("account:" + name.substring(5), new FileAccess.Viewer("", false, Map.of()));
            return s == null ? null : new FileAccess.Space(FileAccess.Kind.USER, s.slug());
        }
        return FileAccess.parse(name, new FileAccess.Viewer("", false, Map.of()));
    }
}
