package io.crater;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

/**
 * Temporary directories of the tests (homes with an embedded PostgreSQL's data are hundreds of MB each), removed
 * when the test JVM exits, so that runs do not fill the disk.
 */
public final class TestDirs {

    private static final List<Path> CREATED = new CopyOnWriteArrayList<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> CREATED.forEach(TestDirs::delete), "test-dirs"));
    }

    private TestDirs() {}

    /** A new temporary directory, deleted with everything in it when the JVM exits. */
    public static Path create(String prefix) {
        try {
            Path dir = Files.createTempDirectory(prefix);
            CREATED.add(dir);
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deletes a directory tree now, as far as it can (a file still being written by a dying process may stay). */
    public static void delete(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException ignored) {
                    // left for the next clean-up of the temporary directory
                }
            });
        } catch (IOException | UncheckedIOException ignored) {
            // the tree changed while it was walked; what is left stays
        }
    }
}
