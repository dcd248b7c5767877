package io.crater.gpus;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A reader of Prometheus's text exposition format (0.0.4), as dcgm-exporter serves it: {@code # HELP} and
 * {@code # TYPE} lines and other comments are skipped, each sample line gives a metric name, its labels (values with
 * the escapes {@code \\}, {@code \"} and {@code \n}) and a value ({@code NaN}, {@code +Inf} and {@code -Inf}
 * included); an optional timestamp is ignored. A line that is not one of these is an error naming its number.
 */
final class ExpositionParser {

    private ExpositionParser() {}

    /** One sample: a metric, its labels and its value. */
    record Sample(String name, Map<String, String> labels, double value) {}

    static List<Sample> parse(String text) {
        List<Sample> out = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            try {
                out.add(sample(line));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("line " + (i + 1) + ": " + e.getMessage(), e);
            }
        }
        return out;
    }

    private static Sample sample(String line) {
        int at = 0;
        while (at < line.length() && nameChar(line.charAt(at), at == 0)) {
            at++;
        }
        if (at == 0) {
            throw new IllegalArgumentException("no metric name");
        }
        String name = line.substring(0, at);
        Map<String, String> labels = new LinkedHashMap<>();
        if (at < line.length() && line.charAt(at) == '{') {
            at = labels(line, at + 1, labels);
        }
        String[] rest = line.substring(at).strip().split("\\s+");
        if (rest.length == 0 || rest[0].isEmpty() || rest.length > 2) {
            throw new IllegalArgumentException("expected a value (and an optional timestamp) after " + name);
        }
        return new Sample(name, Map.copyOf(labels), value(rest[0]));
    }

    /** Reads {@code a="x",b="y"}} from {@code at} (just after the brace); the index after the closing brace. */
    private static int labels(String line, int at, Map<String, String> into) {
        while (true) {
            at = skipSpaces(line, at);
            if (at < line.length() && line.charAt(at) == '}') {
                return at + 1;
            }
            int start = at;
            while (at < line.length() && nameChar(line.charAt(at), at == start)) {
                at++;
            }
            if (at == start || at >= line.length() || line.charAt(at) != '=') {
                throw new IllegalArgumentException("expected a label name and '=' at column " + (at + 1));
            }
            String label = line.substring(start, at);
            at++;
            if (at >= line.length() || line.charAt(at) != '"') {
                throw new IllegalArgumentException("expected '\"' after " + label + "=");
            }
            StringBuilder value = new StringBuilder();
            at = quoted(line, at + 1, value);
            into.put(label, value.toString());
            at = skipSpaces(line, at);
            if (at < line.length() && line.charAt(at) == ',') {
                at++;
            } else if (at >= line.length() || line.charAt(at) != '}') {
                throw new IllegalArgumentException("expected ',' or '}' after the value of " + label);
            }
        }
    }

    /** Reads a label value up to its closing quote, resolving escapes; the index after the quote. */
    private static int quoted(String line, int at, StringBuilder into) {
        while (at < line.length()) {
            char c = line.charAt(at);
            if (c == '"') {
                return at + 1;
            }
            if (c == '\\' && at + 1 < line.length()) {
                char next = line.charAt(at + 1);
                into.append(
                        switch (next) {
                            case 'n' -> '\n';
                            case '\\' -> '\\';
                            case '"' -> '"';
                            default -> throw new IllegalArgumentException("unknown escape \\" + next);
                        });
                at += 2;
            } else {
                into.append(c);
                at++;
            }
        }
        throw new IllegalArgumentException("a label value is not closed");
    }

    static double value(String s) {
        return switch (s) {
            case "NaN" -> Double.NaN;
            case "+Inf", "Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            default -> {
                try {
                    yield Double.parseDouble(s);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("not a number: " + s);
                }
            }
        };
    }

    private static boolean nameChar(char c, boolean first) {
        return c == '_'
                || c == ':'
                || (c >= 'a' && c <= 'z')
                || (c >= 'A' && c <= 'Z')
                || (!first && c >= '0' && c <= '9');
    }

    private static int skipSpaces(String line, int at) {
        while (at < line.length() && (line.charAt(at) == ' ' || line.charAt(at) == '\t')) {
            at++;
        }
        return at;
    }
}
