package io.crater.files;

import io.crater.platform.ApiException;
import io.crater.policy.FileAccess;
import io.crater.policy.FilePaths;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;

/**
 * The one way from a checked path ({@link FilePaths}) to a file inside a space. Each folder on the way is looked up
 * without following links and re-read through its real path, which must stay under the space's real root; a link
 * on the way is refused, a link at the end is an entry of its own that is never opened, listed into, copied or
 * followed. Crater never creates a link. New entries get the space's modes (users' 0750/0640, accounts' setgid
 * 2770/0660 with the account's group, public 0755/0644) and, where the process may chown, its owner.
 */
final class SpaceFs {

    static final LinkOption[] NOFOLLOW = {LinkOption.NOFOLLOW_LINKS};

    private SpaceFs() {}

    /**
     * Who new entries belong to.
     *
     * @param uid the user's UID for a user space, else null
     * @param gid the account's GID for an account space, else null
     */
    record Owner(FileAccess.Kind kind, Integer uid, Integer gid) {
        int mode(boolean folder) {
            return switch (kind) {
                case USER -> folder ? 0750 : 0640;
                case ACCOUNT -> folder ? 02770 : 0660;
                case PUBLIC -> folder ? 0755 : 0644;
            };
        }
    }

    /**
     * A path inside a space.
     *
     * @param path the entry (the space's root for no segments)
     * @param attributes its own attributes (a link's, not its target's), null when nothing is there
     * @param segments the names from the root, for display
     */
    record Resolved(Path root, Path path, BasicFileAttributes attributes, List<String> segments) {
        boolean exists() {
            return attributes != null;
        }

        boolean folder() {
            return attributes != null && attributes.isDirectory();
        }

        boolean link() {
            return attributes != null && attributes.isSymbolicLink();
        }

        boolean isRoot() {
            return segments.isEmpty();
        }

        String display() {
            return "/" + String.join("/", segments);
        }

        String name() {
            return segments.isEmpty() ? "" : segments.get(segments.size() - 1);
        }
    }

    /** The space's root folder, made (with its modes and owner) when it is not there yet; its real path. */
    static Path root(Path spacesRoot, FileAccess.Space space, Owner owner) {
        Path dir = spacesRoot.resolve(space.folder());
        try {
            if (!Files.exists(dir, NOFOLLOW)) {
                Files.createDirectories(dir.getParent());
                try {
                    Files.createDirectory(dir);
                    own(dir, owner, true);
                } catch (FileAlreadyExistsException raced) {
                    // made by another request at the same time
                }
            }
            if (Files.isSymbolicLink(dir) || !Files.isDirectory(dir, NOFOLLOW)) {
                throw new IllegalStateException("the space " + space.folder() + " is not a folder");
            }
            return dir.toRealPath();
        } catch (IOException e) {
            throw new IllegalStateException("cannot open the space " + space.folder(), e);
        }
    }

    /** Resolves checked segments inside a space whose real root is {@code root}. */
    static Resolved resolve(Path root, List<String> segments) {
        Path current = root;
        for (int i = 0; i < segments.size() - 1; i++) {
            Path next = current.resolve(segments.get(i));
            BasicFileAttributes a = attributes(next);
            if (a == null) {
                throw ApiException.notFound("no folder " + display(segments.subList(0, i + 1)) + " in this space");
            }
            if (a.isSymbolicLink()) {
                throw new ApiException(
                        400,
                        "LinkNotFollowed",
                        "Bad request",
                        display(segments.subList(0, i + 1)) + " is a link, which the file API does not follow",
                        null,
                        null,
                        null);
            }
            if (!a.isDirectory()) {
                throw ApiException.conflict("NotAFolder", display(segments.subList(0, i + 1)) + " is not a folder");
            }
            current = inside(root, next);
        }
        Path target = segments.isEmpty() ? root : current.resolve(segments.get(segments.size() - 1));
        if (!target.normalize().startsWith(root)) {
            throw ApiException.notFound("no such path in this space");
        }
        return new Resolved(root, target, attributes(target), List.copyOf(segments));
    }

    /** The real path of a folder found without following links; it must still be under the root. */
    private static Path inside(Path root, Path folder) {
        try {
            Path real = folder.toRealPath();
            if (!real.startsWith(root)) {
                throw ApiException.notFound("no such path in this space");
            }
            return real;
        } catch (IOException e) {
            throw ApiException.notFound("no such path in this space");
        }
    }

    /** An entry's own attributes (not a link's target's), null when nothing is there. */
    static BasicFileAttributes attributes(Path p) {
        try {
            return Files.readAttributes(p, BasicFileAttributes.class, NOFOLLOW);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Makes a folder with the space's mode and owner. */
    static void mkdir(Path dir, Owner owner) throws IOException {
        Files.createDirectory(dir);
        own(dir, owner, true);
    }

    /**
     * Gives an entry the space's mode and, where the process may, its owner: a user space's UID, an account's GID.
     * In the embedded default Crater usually runs as an ordinary user who may not chown: then only the mode is set.
     */
    static void own(Path p, Owner owner, boolean folder) throws IOException {
        try {
            if (owner.uid() != null) {
                Files.setAttribute(p, "unix:uid", owner.uid(), NOFOLLOW);
            }
            if (owner.gid() != null) {
                Files.setAttribute(p, "unix:gid", owner.gid(), NOFOLLOW);
            }
        } catch (java.nio.file.FileSystemException | SecurityException notPermitted) {
            // Not allowed to change owners (not root, no CAP_CHOWN): the mode alone holds.
        }
        // After the owner: a chown may clear the setgid bit.
        Files.setAttribute(p, "unix:mode", owner.mode(folder), NOFOLLOW);
    }

    static String display(List<String> segments) {
        return "/" + String.join("/", segments);
    }
}
