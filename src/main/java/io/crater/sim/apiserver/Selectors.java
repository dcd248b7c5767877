package io.crater.sim.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Kubernetes label and field selectors as the API server reads them: {@code k=v}, {@code k==v}, {@code k!=v},
 * {@code k in (a,b)}, {@code k notin (a,b)}, {@code k}, {@code !k} for labels; {@code path=v}, {@code path==v},
 * {@code path!=v} for the fields a resource supports (anything else is refused, as a real API server does).
 */
final class Selectors {

    private Selectors() {}

    enum Op {
        EQUALS,
        NOT_EQUALS,
        IN,
        NOT_IN,
        EXISTS,
        NOT_EXISTS
    }

    /** One requirement of a selector. */
    record Term(String key, Op op, Set<String> values) {

        boolean matches(Map<String, String> labels) {
            String v = labels.get(key);
            return switch (op) {
                case EQUALS, IN -> v != null && values.contains(v);
                case NOT_EQUALS, NOT_IN -> v == null || !values.contains(v);
                case EXISTS -> v != null;
                case NOT_EXISTS -> v == null;
            };
        }
    }

    /** A parsed selector: every term must hold; an empty selector matches everything. */
    record Selector(List<Term> terms) {
        static final Selector EVERYTHING = new Selector(List.of());

        boolean matches(Map<String, String> values) {
            for (Term t : terms) {
                if (!t.matches(values)) {
                    return false;
                }
            }
            return true;
        }

        boolean isEmpty() {
            return terms.isEmpty();
        }
    }

    /** Thrown for a selector the API server cannot read; answered 400 BadRequest. */
    static final class BadSelector extends RuntimeException {
        BadSelector(String message) {
            super(message);
        }
    }

    static Selector labels(String text) {
        if (text == null || text.isBlank()) {
            return Selector.EVERYTHING;
        }
        List<Term> terms = new ArrayList<>();
        for (String part : splitTopLevel(text)) {
            String p = part.trim();
            if (p.isEmpty()) {
                throw new BadSelector("empty requirement in label selector \"" + text + "\"");
            }
            terms.add(labelTerm(p, text));
        }
        return new Selector(List.copyOf(terms));
    }

    private static Term labelTerm(String p, String whole) {
        if (p.startsWith("!")) {
            return new Term(key(p.substring(1).trim(), whole), Op.NOT_EXISTS, Set.of());
        }
        int ne = p.indexOf("!=");
        if (ne > 0) {
            return new Term(key(p.substring(0, ne).trim(), whole), Op.NOT_EQUALS, Set.of(value(p.substring(ne + 2))));
        }
        int eq = p.indexOf('=');
        if (eq > 0) {
            String v = p.startsWith("==", eq) ? p.substring(eq + 2) : p.substring(eq + 1);
            return new Term(key(p.substring(0, eq).trim(), whole), Op.EQUALS, Set.of(value(v)));
        }
        String[] words = p.split("\\s+", 2);
        if (words.length == 2) {
            String rest = words[1].trim();
            Op op = rest.startsWith("notin") ? Op.NOT_IN : rest.startsWith("in") ? Op.IN : null;
            if (op != null) {
                String list = rest.substring(op == Op.IN ? 2 : 5).trim();
                if (!list.startsWith("(") || !list.endsWith(")")) {
                    throw new BadSelector("expected a parenthesised list in label selector \"" + whole + "\"");
                }
                Set<String> values = new java.util.LinkedHashSet<>();
                for (String v : list.substring(1, list.length() - 1).split(",")) {
                    values.add(value(v));
                }
                return new Term(key(words[0], whole), op, Set.copyOf(values));
            }
            throw new BadSelector("unable to parse requirement \"" + p + "\" in label selector \"" + whole + "\"");
        }
        return new Term(key(p, whole), Op.EXISTS, Set.of());
    }

    private static String key(String k, String whole) {
        if (!k.matches("([A-Za-z0-9.-]+/)?[A-Za-z0-9]([A-Za-z0-9_.-]*[A-Za-z0-9])?")) {
            throw new BadSelector("invalid label key \"" + k + "\" in selector \"" + whole + "\"");
        }
        return k;
    }

    private static String value(String v) {
        String t = v.trim();
        if (!t.isEmpty() && !t.matches("[A-Za-z0-9]([A-Za-z0-9_.-]*[A-Za-z0-9])?")) {
            throw new BadSelector("invalid label value \"" + t + "\"");
        }
        return t;
    }

    /** Splits on commas that are not inside a parenthesised value list. */
    private static List<String> splitTopLevel(String text) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                out.add(text.substring(start, i));
                start = i + 1;
            }
        }
        out.add(text.substring(start));
        return out;
    }

    /**
     * A field selector over the fields the resource supports ({@code metadata.name} and
     * {@code metadata.namespace} always; more for pods and events).
     */
    static Selector fields(String text, Set<String> supported, String resource) {
        if (text == null || text.isBlank()) {
            return Selector.EVERYTHING;
        }
        List<Term> terms = new ArrayList<>();
        for (String part : text.split(",")) {
            String p = part.trim();
            int ne = p.indexOf("!=");
            int eq = p.indexOf('=');
            String field;
            String v;
            Op op;
            if (ne > 0) {
                field = p.substring(0, ne).trim();
                v = p.substring(ne + 2);
                op = Op.NOT_EQUALS;
            } else if (eq > 0) {
                field = p.substring(0, eq).trim();
                v = p.startsWith("==", eq) ? p.substring(eq + 2) : p.substring(eq + 1);
                op = Op.EQUALS;
            } else {
                throw new BadSelector("invalid field selector \"" + text + "\": expected field=value or field!=value");
            }
            if (!supported.contains(field) && !field.equals("metadata.name") && !field.equals("metadata.namespace")) {
                throw new BadSelector("field label not supported for " + resource + ": " + field);
            }
            terms.add(new Term(field, op, Set.of(v.trim())));
        }
        return new Selector(List.copyOf(terms));
    }

    /** The string at a dotted path of an object ({@code spec.nodeName}), or null. */
    static String at(JsonNode object, String path) {
        JsonNode n = object;
        for (String part : path.split("\\.")) {
            n = n == null ? null : n.get(part);
        }
        return n == null || n.isNull() || n.isContainerNode() ? null : n.asText();
    }
}
