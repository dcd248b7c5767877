package io.crater.sim.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The files a simulated container sees: its mounts, each a host directory (the shared spaces' folders, a per-pod
 * scratch folder for the container's own file system and its other volumes), joined into one tree. A path is
 * resolved one name at a time inside that tree: {@code ..} never climbs above {@code /}, and a symbolic link is read
 * and followed as the container would, inside the tree, never on the host; so nothing outside the mounted
 * directories can be reached. Writes into a read-only mount fail with "Read-only file system"; on the container's
 * own file system a user other than root may write only under {@code /tmp} and their home directory.
 */
final class SimFiles {

    /** A directory mounted at {@code path} (absolute, normalised), backed by the host directory {@code host}. */
    record Mount(String path, Path host, boolean readOnly) {}

    /** A path resolved in the container's tree: where it points on the host and the mount holding it. */
    record Located(String path, Path host, Mount mount) {
        String name() {
            return path.equals("/") ? "/" : path.substring(path.lastIndexOf('/') + 1);
        }
    }

    /** Why a file operation failed, as the C library words it ({@code No such file or directory}, ...). */
    static final class FsError extends Exception {
        FsError(String reason) {
            super(reason, null, false, false);
        }
    }

    static final String NOT_FOUND = "No such file or directory";
    static final String READ_ONLY = "Read-only file system";
    static final String DENIED = "Permission denied";
    /** The most {@code cat} reads of one file: the simulated shell holds output in memory. */
    static final int MAX_READ = 1 << 20;

    private static final int MAX_LINKS = 40;

    private final List<Mount> mounts;
    private final boolean root;
    private final String home;

    /** {@code mounts} must include one at {@code /} (the container's own file system). */
    SimFiles(List<Mount> mounts, boolean root, String home) {
        this.mounts = mounts.stream()
                .sorted(Comparator.comparingInt((Mount m) -> m.path().length()).reversed())
                .toList();
        this.root = root;
        this.home = home;
        if (this.mounts.isEmpty()
                || !this.mounts.get(this.mounts.size() - 1).path().equals("/")) {
            throw new IllegalArgumentException("the container's tree needs a mount at /");
        }
    }

    List<Mount> mounts() {
        return mounts;
    }

    /** Resolves {@code path} (relative to {@code cwd}); {@code followLast}: a link at the end is followed too. */
    Located locate(String cwd, String path, boolean followLast) throws FsError {
        List<String> todo = new ArrayList<>(names(path.startsWith("/") ? path : cwd + "/" + path));
        List<String> done = new ArrayList<>();
        int links = 0;
        while (!todo.isEmpty()) {
            String name = todo.remove(0);
            if (name.equals(".")) {
                continue;
            }
            if (name.equals("..")) {
                if (!done.isEmpty()) {
                    done.remove(done.size() - 1);
                }
                continue;
            }
            done.add(name);
            Located here = at(done);
            if (!todo.isEmpty()
                    && Files.exists(here.host(), LinkOption.NOFOLLOW_LINKS)
                    && !isLink(here)
                    && !Files.isDirectory(here.host(), LinkOption.NOFOLLOW_LINKS)) {
                throw new FsError("Not a directory");
            }
            if (isLink(here) && (followLast || !todo.isEmpty())) {
                if (++links > MAX_LINKS) {
                    throw new FsError("Too many levels of symbolic links");
                }
                String target = readLink(here);
                done.remove(done.size() - 1);
                List<String> next = new ArrayList<>(names(target));
                next.addAll(todo);
                todo = next;
                if (target.startsWith("/")) {
                    done.clear();
                }
            }
        }
        return at(done);
    }

    private Located at(List<String> names) {
        String path = "/" + String.join("/", names);
        for (Mount m : mounts) {
            if (m.path().equals("/") || path.equals(m.path()) || path.startsWith(m.path() + "/")) {
                String rest = m.path().equals("/")
                        ? path.substring(1)
                        : path.substring(m.path().length());
                Path host = m.host();
                for (String n : names(rest)) {
                    host = host.resolve(n);
                }
                return new Located(path, host, m);
            }
        }
        throw new IllegalStateException("no mount at /");
    }

    private static List<String> names(String path) {
        List<String> out = new ArrayList<>();
        for (String n : path.split("/")) {
            if (!n.isEmpty()) {
                out.add(n);
            }
        }
        return out;
    }

    static boolean isLink(Located l) {
        return Files.isSymbolicLink(l.host());
    }

    static String readLink(Located l) throws FsError {
        try {
            return Files.readSymbolicLink(l.host()).toString();
        } catch (IOException e) {
            throw new FsError(NOT_FOUND);
        }
    }

    static boolean exists(Located l) {
        return Files.exists(l.host(), LinkOption.NOFOLLOW_LINKS);
    }

    static boolean isDir(Located l) {
        return Files.isDirectory(l.host(), LinkOption.NOFOLLOW_LINKS);
    }

    static BasicFileAttributes attributes(Located l) throws FsError {
        try {
            return Files.readAttributes(l.host(), BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            throw new FsError(NOT_FOUND);
        }
    }

    /** The names in a directory, sorted, with {@code .} and {@code ..} first when {@code all}. */
    List<Located> list(Located dir, boolean all) throws FsError {
        if (!exists(dir)) {
            throw new FsError(NOT_FOUND);
        }
        List<Located> out = new ArrayList<>();
        if (all) {
            out.add(new Located(".", dir.host(), dir.mount()));
            out.add(new Located("..", dir.host(), dir.mount()));
        }
        try (Stream<Path> s = Files.list(dir.host())) {
            for (Path p : s.sorted().toList()) {
                String name = p.getFileName().toString();
                if (all || !name.startsWith(".")) {
                    out.add(new Located((dir.path().equals("/") ? "" : dir.path()) + "/" + name, p, dir.mount()));
                }
            }
        } catch (NotDirectoryException e) {
            throw new FsError("Not a directory");
        } catch (IOException e) {
            throw new FsError(DENIED);
        }
        return out;
    }

    /** A file's text (at most {@link #MAX_READ} bytes). */
    static String read(Located l) throws FsError {
        if (isDir(l)) {
            throw new FsError("Is a directory");
        }
        try (InputStream in = Files.newInputStream(l.host(), LinkOption.NOFOLLOW_LINKS)) {
            byte[] bytes = in.readNBytes(MAX_READ + 1);
            if (bytes.length > MAX_READ) {
                throw new FsError("File too large (the simulated shell reads at most 1 MiB)");
            }
            return new String(bytes, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new FsError(NOT_FOUND);
        } catch (IOException e) {
            throw new FsError(DENIED);
        }
    }

    /** Refuses writing at {@code l} when its mount is read-only or the user may not write there. */
    void checkWritable(Located l) throws FsError {
        if (l.mount().readOnly()) {
            throw new FsError(READ_ONLY);
        }
        if (root || !l.mount().path().equals("/")) {
            return;
        }
        if (!within(l.path(), "/tmp") && !within(l.path(), home)) {
            throw new FsError(DENIED);
        }
    }

    private static boolean within(String path, String dir) {
        return !path.equals(dir) && (path.startsWith(dir + "/") || dir.equals("/"));
    }

    private void checkParent(Located l) throws FsError {
        Path parent = l.host().getParent();
        if (parent == null || !Files.isDirectory(parent, LinkOption.NOFOLLOW_LINKS)) {
            throw new FsError(NOT_FOUND);
        }
        checkWritable(l);
    }

    /** Writes (or appends) text to a file, creating it. */
    void write(Located l, String text, boolean append) throws FsError {
        if (isDir(l)) {
            throw new FsError("Is a directory");
        }
        checkParent(l);
        try {
            Files.writeString(
                    l.host(),
                    text,
                    StandardOpenOption.CREATE,
                    append ? StandardOpenOption.APPEND : StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.WRITE,
                    LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            throw new FsError(DENIED);
        }
    }

    /** Creates an empty file, or sets an existing one's modification time to now. */
    void touch(Located l) throws FsError {
        if (exists(l)) {
            checkWritable(l);
            try {
                Files.setLastModifiedTime(l.host(), FileTime.fromMillis(System.currentTimeMillis()));
            } catch (IOException e) {
                throw new FsError(DENIED);
            }
            return;
        }
        write(l, "", true);
    }

    void mkdir(Located l) throws FsError {
        if (exists(l)) {
            throw new FsError("File exists");
        }
        checkParent(l);
        try {
            Files.createDirectory(l.host());
        } catch (FileAlreadyExistsException e) {
            throw new FsError("File exists");
        } catch (IOException e) {
            throw new FsError(DENIED);
        }
    }

    /** Removes a file, an empty directory, or (recursive) a whole tree; a mount point is busy. */
    void remove(Located l, boolean recursive) throws FsError {
        if (!exists(l)) {
            throw new FsError(NOT_FOUND);
        }
        if (mounts.stream().anyMatch(m -> m.path().equals(l.path()) || m.path().startsWith(l.path() + "/"))) {
            throw new FsError("Device or resource busy");
        }
        checkWritable(l);
        try {
            if (recursive && isDir(l)) {
                try (Stream<Path> tree = Files.walk(l.host())) {
                    for (Path p : tree.sorted(Comparator.reverseOrder()).toList()) {
                        Files.delete(p);
                    }
                }
            } else {
                Files.delete(l.host());
            }
        } catch (DirectoryNotEmptyException e) {
            throw new FsError("Directory not empty");
        } catch (IOException e) {
            throw new FsError(DENIED);
        }
    }

    /** Deletes a host directory and everything in it, never following links (a pod's scratch folder). */
    static void deleteTree(Path dir) {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> tree = Files.walk(dir)) {
            for (Path p : tree.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // Best effort: a scratch folder left behind holds only what the pod's shell wrote.
        }
    }
}
