package io.crater.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * kubectl's JSONPath templates over the API's JSON: text with {@code {…}} expressions, {@code .field},
 * {@code ['field']}, {@code [n]}, {@code [a:b]}, {@code [*]}, {@code ..field}, filters
 * {@code [?(@.state=="Running")]} (==, !=, <, >, <=, >=, or a bare path for "present"), string literals
 * {@code {"\n"}} and {@code {range …}…{end}}. Several results print space-separated; objects print as JSON.
 */
public final class JsonPath {

    private sealed interface Node permits Text, Expr, Range {}

    private record Text(String text) implements Node {}

    private record Expr(String path) implements Node {}

    private record Range(String path, List<Node> body) implements Node {}

    private final List<Node> nodes;

    private JsonPath(List<Node> nodes) {
        this.nodes = nodes;
    }

    /** Parses a template; a malformed one is a usage error naming what is wrong. */
    public static JsonPath parse(String template) {
        List<List<Node>> stack = new ArrayList<>();
        stack.add(new ArrayList<>());
        List<String> rangePaths = new ArrayList<>();
        int i = 0;
        while (i < template.length()) {
            int open = template.indexOf('{', i);
            if (open < 0) {
                stack.get(stack.size() - 1).add(new Text(template.substring(i)));
                break;
            }
            if (open > i) {
                stack.get(stack.size() - 1).add(new Text(template.substring(i, open)));
            }
            int close = closing(template, open);
            String expr = template.substring(open + 1, close).strip();
            if (expr.startsWith("range ")) {
                eval(expr.substring(6), Map.of());
                rangePaths.add(expr.substring(6).strip());
                stack.add(new ArrayList<>());
            } else if (expr.equals("end")) {
                if (rangePaths.isEmpty()) {
                    throw bad(template, "{end} without {range}");
                }
                List<Node> body = stack.remove(stack.size() - 1);
                stack.get(stack.size() - 1).add(new Range(rangePaths.remove(rangePaths.size() - 1), body));
            } else if (expr.startsWith("\"") || expr.startsWith("'")) {
                stack.get(stack.size() - 1).add(new Text(literal(expr, template)));
            } else if (expr.isEmpty()) {
                throw bad(template, "empty {}");
            } else {
                eval(expr, Map.of());
                stack.get(stack.size() - 1).add(new Expr(expr));
            }
            i = close + 1;
        }
        if (stack.size() != 1) {
            throw bad(template, "{range} without {end}");
        }
        return new JsonPath(stack.get(0));
    }

    /** The template applied to {@code root}. */
    public String render(Object root) {
        StringBuilder out = new StringBuilder();
        render(nodes, root, out);
        return out.toString();
    }

    private static void render(List<Node> nodes, Object current, StringBuilder out) {
        for (Node n : nodes) {
            if (n instanceof Text t) {
                out.append(t.text());
            } else if (n instanceof Expr e) {
                List<Object> results = eval(e.path(), current);
                for (int k = 0; k < results.size(); k++) {
                    out.append(k == 0 ? "" : " ").append(print(results.get(k)));
                }
            } else if (n instanceof Range r) {
                for (Object item : eval(r.path(), current)) {
                    render(r.body(), item, out);
                }
            }
        }
    }

    static String print(Object v) {
        if (v instanceof Map<?, ?> || v instanceof List<?>) {
            return new String(Api.write(v), java.nio.charset.StandardCharsets.UTF_8);
        }
        return v == null ? "" : v.toString();
    }

    /** Every value a path selects, relative to {@code current} ({@code $} and {@code @} both name it). */
    static List<Object> eval(String path, Object current) {
        String p = path.strip();
        if (p.startsWith("$") || p.startsWith("@")) {
            p = p.substring(1);
        }
        List<Object> cur = new ArrayList<>();
        cur.add(current);
        int i = 0;
        while (i < p.length()) {
            char c = p.charAt(i);
            if (p.startsWith("..", i)) {
                int end = nameEnd(p, i + 2);
                String name = p.substring(i + 2, end);
                List<Object> next = new ArrayList<>();
                cur.forEach(o -> descend(o, name, next));
                cur = next;
                i = end;
            } else if (c == '.') {
                int end = nameEnd(p, i + 1);
                String name = p.substring(i + 1, end);
                cur = name.isEmpty() ? cur : field(cur, name);
                i = end;
            } else if (c == '[') {
                int end = bracketEnd(p, i);
                cur = index(cur, p.substring(i + 1, end).strip());
                i = end + 1;
            } else {
                throw new CliException(Exit.USAGE, "jsonpath: unexpected '" + c + "' in " + path);
            }
        }
        return cur;
    }

    private static List<Object> field(List<Object> cur, String name) {
        List<Object> next = new ArrayList<>();
        for (Object o : cur) {
            if (o instanceof Map<?, ?> m && m.containsKey(name)) {
                next.add(m.get(name));
            }
        }
        return next;
    }

    private static void descend(Object o, String name, List<Object> into) {
        if (o instanceof Map<?, ?> m) {
            if (m.containsKey(name)) {
                into.add(m.get(name));
            }
            m.values().forEach(v -> descend(v, name, into));
        } else if (o instanceof List<?> l) {
            l.forEach(v -> descend(v, name, into));
        }
    }

    private static List<Object> index(List<Object> cur, String idx) {
        if (idx.startsWith("'") || idx.startsWith("\"")) {
            return field(cur, idx.substring(1, idx.length() - 1));
        }
        List<Object> next = new ArrayList<>();
        for (Object o : cur) {
            List<?> l = o instanceof List<?> list ? list : null;
            if (idx.equals("*")) {
                if (l != null) {
                    next.addAll(l);
                } else if (o instanceof Map<?, ?> m) {
                    next.addAll(m.values());
                }
            } else if (l == null) {
                continue;
            } else if (idx.startsWith("?(") && idx.endsWith(")")) {
                String filter = idx.substring(2, idx.length() - 1);
                l.stream().filter(item -> Filter.matches(filter, item)).forEach(next::add);
            } else if (idx.contains(":")) {
                String[] ab = idx.split(":", -1);
                int from = bound(ab[0], 0, l.size());
                int to = bound(ab[1], l.size(), l.size());
                for (int k = from; k < to; k++) {
                    next.add(l.get(k));
                }
            } else {
                int k = bound(idx, -1, l.size());
                if (k >= 0 && k < l.size()) {
                    next.add(l.get(k));
                }
            }
        }
        return next;
    }

    private static int bound(String s, int absent, int size) {
        if (s.isBlank()) {
            return absent;
        }
        try {
            int v = Integer.parseInt(s.strip());
            return Math.max(0, Math.min(size, v < 0 ? size + v : v));
        } catch (NumberFormatException e) {
            throw new CliException(Exit.USAGE, "jsonpath: not an index: [" + s + "]");
        }
    }

    private static int nameEnd(String p, int from) {
        int i = from;
        while (i < p.length() && p.charAt(i) != '.' && p.charAt(i) != '[') {
            i++;
        }
        return i;
    }

    private static int bracketEnd(String p, int open) {
        int depth = 0;
        char quote = 0;
        for (int i = open; i < p.length(); i++) {
            char c = p.charAt(i);
            if (quote != 0) {
                quote = c == quote ? 0 : quote;
            } else if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == '[') {
                depth++;
            } else if (c == ']' && --depth == 0) {
                return i;
            }
        }
        throw new CliException(Exit.USAGE, "jsonpath: unclosed [ in " + p);
    }

    private static int closing(String t, int open) {
        char quote = 0;
        for (int i = open + 1; i < t.length(); i++) {
            char c = t.charAt(i);
            if (quote != 0) {
                if (c == '\\') {
                    i++;
                } else if (c == quote) {
                    quote = 0;
                }
            } else if (c == '"' || c == '\'') {
                quote = c;
            } else if (c == '}') {
                return i;
            }
        }
        throw bad(t, "unclosed {");
    }

    private static String literal(String expr, String template) {
        char q = expr.charAt(0);
        if (expr.length() < 2 || expr.charAt(expr.length() - 1) != q) {
            throw bad(template, "unclosed string " + expr);
        }
        String body = expr.substring(1, expr.length() - 1);
        return body.replace("\\n", "\n").replace("\\t", "\t").replace("\\r", "\r");
    }

    private static CliException bad(String template, String what) {
        return new CliException(Exit.USAGE, "jsonpath: " + what + " in " + template);
    }

    /** The condition inside {@code [?( … )]}. */
    static final class Filter {
        private static final String[] OPS = {"==", "!=", "<=", ">=", "<", ">"};

        static boolean matches(String filter, Object item) {
            for (String op : OPS) {
                int at = operator(filter, op);
                if (at >= 0) {
                    List<Object> left = eval(filter.substring(0, at), item);
                    Object right = constant(filter.substring(at + op.length()).strip(), item);
                    return !left.isEmpty() && compare(left.get(0), op, right);
                }
            }
            return !eval(filter, item).isEmpty();
        }

        private static int operator(String f, String op) {
            char quote = 0;
            for (int i = 0; i + op.length() <= f.length(); i++) {
                char c = f.charAt(i);
                if (quote != 0) {
                    quote = c == quote ? 0 : quote;
                } else if (c == '"' || c == '\'') {
                    quote = c;
                } else if (f.startsWith(op, i)) {
                    return i;
                }
            }
            return -1;
        }

        private static Object constant(String s, Object item) {
            if (s.length() >= 2 && (s.startsWith("\"") || s.startsWith("'"))) {
                return s.substring(1, s.length() - 1);
            }
            if (s.startsWith("@")) {
                List<Object> v = eval(s, item);
                return v.isEmpty() ? null : v.get(0);
            }
            try {
                return Double.parseDouble(s);
            } catch (NumberFormatException e) {
                return s;
            }
        }

        private static boolean compare(Object left, String op, Object right) {
            int c;
            if (left instanceof Number a && right instanceof Number b) {
                c = Double.compare(a.doubleValue(), b.doubleValue());
            } else {
                c = String.valueOf(left).compareTo(String.valueOf(right));
            }
            return switch (op) {
                case "==" -> c == 0;
                case "!=" -> c != 0;
                case "<" -> c < 0;
                case ">" -> c > 0;
                case "<=" -> c <= 0;
                default -> c >= 0;
            };
        }
    }
}
