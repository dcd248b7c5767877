package io.crater;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The console's wire types ({@code src/main/webui/src/api/types/*.ts}) read as text: each exported interface with its
 * own top-level fields and the interface it extends. Comments are skipped; an inline object type's fields belong to
 * it, not to the interface.
 */
final class ConsoleTypes {

    private ConsoleTypes() {}

    static final Path DIR = Path.of("src/main/webui/src/api/types");

    /** One interface: where it is, its name, its own fields and the interface it extends (null: none). */
    record Type(String file, String name, Set<String> fields, String parent) {}

    private static final Pattern HEAD = Pattern.compile("^export interface (\\w+)(?:<[^>]*>)?(?: extends (\\w+))? \\{");
    private static final Pattern FIELD = Pattern.compile("^\\s*(?:readonly\\s+)?(\\w+)\\??\\s*:");

    /** Every exported interface of the directory by name. */
    static Map<String, Type> read(Path dir) {
        Map<String, Type> out = new TreeMap<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f :
                    files.filter(p -> p.toString().endsWith(".ts")).sorted().toList()) {
                parse(f.getFileName().toString(), Files.readAllLines(f)).forEach(t -> out.put(t.name(), t));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** The interfaces of one file's lines. */
    static List<Type> parse(String file, List<String> lines) {
        List<Type> out = new java.util.ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher head = HEAD.matcher(lines.get(i));
            if (!head.find()) {
                continue;
            }
            Set<String> fields = new LinkedHashSet<>();
            int depth = 1;
            boolean comment = false;
            for (i = i + 1; i < lines.size() && depth > 0; i++) {
                String line = lines.get(i).trim();
                if (comment || line.startsWith("/*")) {
                    comment = !line.contains("*/");
                    continue;
                }
                if (line.startsWith("//")) {
                    continue;
                }
                Matcher field = FIELD.matcher(line);
                if (depth == 1 && field.find()) {
                    fields.add(field.group(1));
                }
                depth += count(line, '{') - count(line, '}');
            }
            i--;
            out.add(new Type(file, head.group(1), fields, head.group(2)));
        }
        return out;
    }

    /** A type's fields with those of the interfaces it extends. */
    static Set<String> allFields(Map<String, Type> types, Type t) {
        Set<String> out = new LinkedHashSet<>(t.fields());
        if (t.parent() != null && types.containsKey(t.parent())) {
            out.addAll(allFields(types, types.get(t.parent())));
        }
        return out;
    }

    private static int count(String s, char c) {
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) == c) {
                n++;
            }
        }
        return n;
    }
}
