package io.crater.files;

import io.crater.policy.FileQuota;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What each space holds, in bytes and entries: measured by walking it (links are counted, never followed), kept in
 * memory and moved by the API's own writes, walked again once {@link FilesConfig#usageFor()} has passed (jobs and
 * SFTP write there too).
 */
@ApplicationScoped
class SpaceUsage {

    @Inject
    FilesConfig config;

    @Inject
    Clock clock;

    private record Measured(FileQuota.Usage usage, Instant at) {}

    private final Map<String, Measured> spaces = new ConcurrentHashMap<>();

    /** The space's usage, walked when not known or too old. */
    FileQuota.Usage of(FileSpaces.Opened space) {
        return of(space.key(), space.root());
    }

    /** The usage of the space kept under {@code key}, whose folder is {@code root}. */
    FileQuota.Usage of(String key, java.nio.file.Path root) {
        Measured m = spaces.get(key);
        Instant now = clock.instant();
        if (m == null || m.at().plus(config.usageFor()).isBefore(now)) {
            m = new Measured(walk(root), now);
            spaces.put(key, m);
        }
        return m.usage();
    }

    /** Moves the known usage by a write of the API (nothing when it is not known yet: the walk will see it). */
    void add(FileSpaces.Opened space, long bytes, long files) {
        spaces.computeIfPresent(space.key(), (k, m) -> new Measured(m.usage().plus(bytes, files), m.at()));
    }

    /** Bytes of regular files and the number of entries below a folder (the folder itself not counted). */
    static FileQuota.Usage walk(Path root) {
        long[] sum = new long[2];
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                    if (!dir.equals(root)) {
                        sum[1]++;
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    sum[1]++;
                    if (attrs.isRegularFile()) {
                        sum[0] += attrs.size();
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new FileQuota.Usage(sum[0], sum[1]);
    }

    /** What one entry holds, itself included: a file's bytes and 1, a folder's total and its entries + 1. */
    static FileQuota.Usage entry(SpaceFs.Resolved r) {
        if (r.folder()) {
            FileQuota.Usage inner = walk(r.path());
            return inner.plus(0, 1);
        }
        return new FileQuota.Usage(
                r.attributes().isRegularFile() ? r.attributes().size() : 0, 1);
    }
}
