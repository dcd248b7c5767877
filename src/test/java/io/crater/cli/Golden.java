package io.crater.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Golden files of the client's output under src/test/resources/cli/golden. {@code -Dcrater.golden.update=true}
 * rewrites them from the current output (review the diff before committing). Callers replace what changes from
 * run to run (ids, ages, times) before comparing.
 */
public final class Golden {

    static final Path DIR = Path.of("src/test/resources/cli/golden");

    private Golden() {}

    public static void assertMatches(String name, String actual) {
        Path file = DIR.resolve(name);
        try {
            if (Boolean.getBoolean("crater.golden.update") || !Files.exists(file)) {
                Files.createDirectories(file.getParent());
                Files.writeString(file, actual, StandardCharsets.UTF_8);
                if (!Boolean.getBoolean("crater.golden.update")) {
                    throw new AssertionError("golden file " + file + " was missing and is now written: review it");
                }
                return;
            }
            assertThat(actual).as("output against " + file).isEqualTo(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
