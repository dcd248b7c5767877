package io.crater.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Collection;

/**
 * Names the shell completion offers (job, template, dataset, model and image ids, account slugs), remembered from the lists a command
 * has just fetched: {@code $XDG_CACHE_HOME/crater/names/<kind>} (else {@code ~/.cache/crater/names}), one name
 * per line. The completion scripts read these files, so completing never starts a JVM; a failure to write is
 * ignored, completion is a convenience.
 */
public final class NameCache {

    /** The kinds of names remembered. */
    public static final String JOBS = "jobs";

    public static final String TEMPLATES = "templates";
    public static final String ACCOUNTS = "accounts";
    public static final String DATASETS = "datasets";
    public static final String MODELS = "models";
    public static final String IMAGES = "images";

    private NameCache() {}

    public static Path dir(Terminal term) {
        String xdg = term.env("XDG_CACHE_HOME");
        Path base = xdg != null ? Path.of(xdg) : Path.of(Config.home(term), ".cache");
        return base.resolve("crater").resolve("names");
    }

    /** Replaces the remembered names of a kind (at most the first 500). */
    public static void remember(Terminal term, String kind, Collection<String> names) {
        Path dir = dir(term);
        try {
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, kind, ".tmp");
            Files.writeString(
                    tmp,
                    String.join("\n", names.stream().limit(500).toList()) + (names.isEmpty() ? "" : "\n"),
                    StandardCharsets.UTF_8);
            Files.move(tmp, dir.resolve(kind), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | RuntimeException e) {
            // Completion only offers fewer names.
        }
    }
}
