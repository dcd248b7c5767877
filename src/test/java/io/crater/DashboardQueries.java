package io.crater;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The queries of the Grafana dashboards in {@code grafana-dashboards/}: every panel target's {@code expr} (rows'
 * panels included), with Grafana's variables substituted, and the metric names and matcher labels they use.
 */
public final class DashboardQueries {

    /** One panel target's query. */
    public record Query(String dashboard, String panel, String expr) {}

    /** A metric a query selects and the labels its matchers name. */
    public record Selector(String metric, Set<String> labels) {}

    private static final ObjectMapper JSON = new ObjectMapper();

    private DashboardQueries() {}

    /** Every target's expression of every dashboard in the folder. */
    public static List<Query> all(Path dir) throws IOException {
        List<Query> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f :
                    files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                JsonNode d = JSON.readTree(f.toFile());
                collect(f.getFileName().toString(), d.path("panels"), out);
            }
        }
        return out;
    }

    private static void collect(String dashboard, JsonNode panels, List<Query> out) {
        for (JsonNode p : panels) {
            for (JsonNode t : p.path("targets")) {
                out.add(new Query(
                        dashboard, p.path("title").asText(), t.path("expr").asText()));
            }
            collect(dashboard, p.path("panels"), out);
        }
    }

    /** The expression with Grafana's variables replaced: each of {@code variables}, then the built-in intervals. */
    public static String substitute(String expr, Map<String, String> variables) {
        String out = expr;
        for (Map.Entry<String, String> v : variables.entrySet()) {
            out = out.replace("${" + v.getKey() + "}", v.getValue()).replace("$" + v.getKey(), v.getValue());
        }
        return out.replace("$__rate_interval", "1m")
                .replace("$__interval", "15s")
                .replace("$__range", "5m");
    }

    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"");
    private static final Pattern GROUPING =
            Pattern.compile("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
    private static final Pattern RANGE = Pattern.compile("\\[[^]]*]");
    private static final Pattern TOKEN =
            Pattern.compile("(?<![\\w.])([a-zA-Z_:][a-zA-Z0-9_:]*)\\s*(\\{([^}]*)})?(\\s*\\()?");
    private static final Pattern MATCHER = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)\\s*(=~|!~|!=|=)");
    private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "bool", "offset", "inf", "nan");

    /** The metrics an expression selects, with the labels its matchers name. */
    public static List<Selector> selectors(String expr) {
        String bare = RANGE.matcher(GROUPING.matcher(STRING.matcher(expr).replaceAll("\"\""))
                        .replaceAll(""))
                .replaceAll("");
        List<Selector> out = new ArrayList<>();
        Matcher m = TOKEN.matcher(bare);
        while (m.find()) {
            String name = m.group(1);
            if (m.group(4) != null && m.group(2) == null || KEYWORDS.contains(name.toLowerCase())) {
                continue;
            }
            Set<String> labels = new TreeSet<>();
            if (m.group(3) != null) {
                Matcher l = MATCHER.matcher(m.group(3));
                while (l.find()) {
                    labels.add(l.group(1));
                }
            }
            out.add(new Selector(name, labels));
        }
        return out;
    }

    /** The label names of each sample name of a Prometheus text exposition. */
    public static Map<String, Set<String>> exported(String exposition) {
        Map<String, Set<String>> out = new TreeMap<>();
        Pattern sample = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})?\\s+\\S+.*$");
        Pattern label = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"");
        for (String line : exposition.split("\n")) {
            if (line.startsWith("#")) {
                continue;
            }
            Matcher m = sample.matcher(line);
            if (m.matches()) {
                Set<String> labels = out.computeIfAbsent(m.group(1), k -> new TreeSet<>());
                if (m.group(3) != null) {
                    Matcher l = label.matcher(m.group(3));
                    while (l.find()) {
                        labels.add(l.group(1));
                    }
                }
            }
        }
        return out;
    }
}
