package io.crater;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A query's columns are read once, by a named row mapper: a record next to the query with a static
 * {@code of(Object[] r)} that converts each column into a named component, so no business code reads a row by
 * position ({@code r[3]}).
 */
class RowMapperTest {

    static final Pattern POSITIONAL = Pattern.compile("\\br\\[\\d+\\]");

    /** The files with positional reads outside {@code static ... of(Object[] r)} mappers, with their lines. */
    static Map<String, List<Integer>> positional() {
        Map<String, List<Integer>> out = new TreeMap<>();
        JavaSources.stripped().forEach((file, src) -> {
            List<JavaSources.Method> mappers = JavaSources.methods(src).stream()
                    .filter(m -> m.name().equals("of") && isMapper(src, m))
                    .toList();
            Matcher r = POSITIONAL.matcher(src);
            while (r.find()) {
                int at = r.start();
                if (mappers.stream().noneMatch(m -> m.open() < at && at < m.close())) {
                    out.computeIfAbsent(file, f -> new ArrayList<>()).add(JavaSources.line(src, at));
                }
            }
        });
        return out;
    }

    private static boolean isMapper(String src, JavaSources.Method m) {
        String before = src.substring(Math.max(0, m.open() - 200), m.open());
        return before.matches("(?s).*\\bstatic\\s+[\\w.]+\\s+of\\s*\\(\\s*Object\\[\\]\\s+r\\s*\\)\\s*$");
    }

    @Test
    void rowsAreReadByNamedMappers() {
        assertThat(positional())
                .as("rows read by position outside a row mapper (add a record with of(Object[] r))")
                .isEmpty();
    }
}
