package io.crater;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The main sources, read as text for the checks the compiler cannot make: comments, string and character literals
 * and text blocks are blanked (their newlines kept, so line numbers stay right), and the methods are found by their
 * braces.
 */
final class JavaSources {

    static final Path ROOT = Path.of("src/main/java/io/crater");

    private static final Pattern TYPE_HEADER = Pattern.compile("\\b(class|interface|enum|record)\\s+[A-Z]\\w*");
    private static final Pattern METHOD_HEADER =
            Pattern.compile("(\\w+)\\s*\\([^{}]*\\)\\s*(throws\\s+[\\w.,\\s]+)?$", Pattern.DOTALL);
    private static final List<String> NOT_METHODS =
            List.of("if", "for", "while", "switch", "catch", "synchronized", "try", "return", "new", "else");

    private JavaSources() {}

    /** A method of a type (not a lambda or a block): where its body starts and ends, 1-based lines. */
    record Method(String name, int firstLine, int lastLine, int open, int close) {
        int lines() {
            return lastLine - firstLine + 1;
        }
    }

    /** Every main source file by its path under {@link #ROOT}, its text stripped of comments and literals. */
    static Map<String, String> stripped() {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> files = Files.walk(ROOT)) {
            for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java"))::iterator) {
                out.put(ROOT.relativize(f).toString().replace('\\', '/'), strip(Files.readString(f)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** The source with comments and the contents of literals replaced by spaces, newlines kept. */
    static String strip(String src) {
        StringBuilder out = new StringBuilder(src.length());
        int i = 0;
        while (i < src.length()) {
            int end = literalOrCommentEnd(src, i);
            if (end == i) {
                out.append(src.charAt(i++));
                continue;
            }
            for (int k = i; k < end; k++) {
                out.append(src.charAt(k) == '\n' ? '\n' : ' ');
            }
            i = end;
        }
        return out.toString();
    }

    private static int literalOrCommentEnd(String s, int i) {
        if (s.startsWith("//", i)) {
            int nl = s.indexOf('\n', i);
            return nl < 0 ? s.length() : nl;
        }
        if (s.startsWith("/*", i)) {
            return s.indexOf("*/", i + 2) + 2;
        }
        if (s.startsWith("\"\"\"", i)) {
            return s.indexOf("\"\"\"", i + 3) + 3;
        }
        char c = s.charAt(i);
        if (c != '"' && c != '\'') {
            return i;
        }
        int k = i + 1;
        while (s.charAt(k) != c) {
            k += s.charAt(k) == '\\' ? 2 : 1;
        }
        return k + 1;
    }

    /** The methods and constructors declared in the (stripped) source, nested types' included. */
    static List<Method> methods(String src) {
        List<Method> out = new ArrayList<>();
        Deque<Object[]> open = new ArrayDeque<>(); // {kind, offset, name}
        int headerStart = 0;
        for (int i = 0; i < src.length(); i++) {
            char c = src.charAt(i);
            if (c == ';') {
                headerStart = i + 1;
            } else if (c == '{') {
                String header = src.substring(headerStart, i).strip();
                open.push(new Object[] {kind(header, open), i, name(header)});
                headerStart = i + 1;
            } else if (c == '}') {
                Object[] block = open.pop();
                if (block[0].equals("method")) {
                    int start = (int) block[1];
                    out.add(new Method((String) block[2], line(src, start), line(src, i), start, i));
                }
                headerStart = i + 1;
            }
        }
        return out;
    }

    private static String kind(String header, Deque<Object[]> open) {
        boolean inType = open.isEmpty() || open.peek()[0].equals("type");
        if (TYPE_HEADER.matcher(header).find() && !header.contains("=")) {
            return "type";
        }
        if (inType && name(header) != null) {
            return "method";
        }
        return "block";
    }

    private static String name(String header) {
        var m = METHOD_HEADER.matcher(header);
        if (!m.find() || header.contains("=") || NOT_METHODS.contains(m.group(1))) {
            return null;
        }
        return m.group(1);
    }

    static int line(String src, int offset) {
        int line = 1;
        for (int i = 0; i < offset; i++) {
            if (src.charAt(i) == '\n') {
                line++;
            }
        }
        return line;
    }
}
