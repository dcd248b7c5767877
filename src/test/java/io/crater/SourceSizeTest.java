package io.crater;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Main classes stay under {@value #MAX_LINES} lines, so they are split along their seams before they hurt. The
 * classes that were over it when the check came in are listed with the size they had: they may shrink, never
 * grow, and leave the list once split.
 */
class SourceSizeTest {

    static final int MAX_LINES = 500;

    /** Over the limit when the check came in, each with its size then: to be split (see docs/architecture.md). */
    static final Map<String, Integer> TO_SPLIT = Map.of();

    @Test
    void noMainClassGrowsPastTheLimit() throws IOException {
        Path root = Path.of("src/main/java/io/crater");
        Map<String, Integer> over = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java"))::iterator) {
                int lines;
                try (Stream<String> l = Files.lines(f)) {
                    lines = (int) l.count();
                }
                String name = root.relativize(f).toString().replace('\\', '/');
                int allowed = TO_SPLIT.getOrDefault(name, MAX_LINES);
                if (lines > allowed) {
                    over.put(name, lines);
                }
            }
        }
        assertThat(over)
                .as("classes over " + MAX_LINES + " lines (or over their size when listed)")
                .isEmpty();
    }

    @Test
    void theListHoldsOnlyClassesStillOverTheLimit() throws IOException {
        for (Map.Entry<String, Integer> e : TO_SPLIT.entrySet()) {
            Path f = Path.of("src/main/java/io/crater", e.getKey());
            long lines;
            try (Stream<String> l = Files.lines(f)) {
                lines = l.count();
            }
            assertThat(lines)
                    .as(e.getKey() + " is split: remove it from the list")
                    .isGreaterThan(MAX_LINES);
        }
    }
}
