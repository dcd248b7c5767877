package io.crater.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * How a command prints what the API answered: {@code -o table} (default), {@code wide}, {@code json},
 * {@code yaml}, {@code name}, {@code jsonpath=TEMPLATE} or {@code custom-columns=HEADER:.path,…}. JSON and
 * YAML carry the API's own field names (docs/api.md); a list prints as {@code {"items": […]}}. Tables print
 * page by page with one header.
 */
public final class Output {

    enum Kind {
        TABLE,
        WIDE,
        JSON,
        YAML,
        NAME,
        JSONPATH,
        CUSTOM
    }

    /** The forms {@code -o} takes, as completion offers them (the last two take a value after {@code =}). */
    public static final class Formats implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return List.of("table", "wide", "json", "yaml", "name", "jsonpath=", "custom-columns=")
                    .iterator();
        }
    }

    /** A table column: its header, how a row's cell is read, and whether only {@code -o wide} shows it. */
    public record Column(String header, Function<Object, String> value, boolean wide, boolean state) {

        public static Column of(String header, Function<Object, String> value) {
            return new Column(header, value, false, false);
        }

        public static Column path(String header, String path) {
            return of(header, o -> Values.text(o, path));
        }

        public static Column wide(String header, Function<Object, String> value) {
            return new Column(header, value, true, false);
        }

        public static Column state(String header, Function<Object, String> value) {
            return new Column(header, value, false, true);
        }
    }

    private static final Set<String> GOOD = Set.of("Running", "Succeeded", "ADMIT", "approved", "active");
    private static final Set<String> BAD = Set.of("Failed", "Rejected", "REJECT", "rejected", "NotReady");
    private static final Set<String> WAITING = Set.of("Queued", "Admitted", "Pending", "QUEUE", "pending");

    private final Kind kind;
    private final String argument;
    private final boolean headers;
    private final boolean colours;
    private final PrintStream out;

    private Output(Kind kind, String argument, boolean headers, boolean colours, PrintStream out) {
        this.kind = kind;
        this.argument = argument;
        this.headers = headers;
        this.colours = colours;
        this.out = out;
    }

    /** Reads {@code -o}; an unknown format is a usage error listing the known ones. */
    public static Output parse(String spec, boolean noHeaders, boolean colours, PrintStream out) {
        String s = spec == null ? "table" : spec.strip();
        int eq = s.indexOf('=');
        String name = eq < 0 ? s : s.substring(0, eq);
        String arg = eq < 0 ? null : s.substring(eq + 1);
        Kind kind = switch (name) {
            case "table", "" -> Kind.TABLE;
            case "wide" -> Kind.WIDE;
            case "json" -> Kind.JSON;
            case "yaml" -> Kind.YAML;
            case "name" -> Kind.NAME;
            case "jsonpath" -> Kind.JSONPATH;
            case "custom-columns" -> Kind.CUSTOM;
            default ->
                throw new CliException(
                        Exit.USAGE,
                        "unknown output format '" + s
                                + "': use table, wide, json, yaml, name, jsonpath=TEMPLATE or"
                                + " custom-columns=HEADER:.path,...");
        };
        if ((kind == Kind.JSONPATH || kind == Kind.CUSTOM) && (arg == null || arg.isBlank())) {
            throw new CliException(Exit.USAGE, "-o " + name + " needs a value: -o " + name + "=...");
        }
        if (kind == Kind.JSONPATH) {
            JsonPath.parse(arg);
        }
        return new Output(kind, arg, !noHeaders, colours, out);
    }

    /** Whether the human form is wanted (table or wide): commands print their own text then. */
    public boolean human() {
        return kind == Kind.TABLE || kind == Kind.WIDE;
    }

    public boolean json() {
        return kind == Kind.JSON;
    }

    public boolean yaml() {
        return kind == Kind.YAML;
    }

    public PrintStream out() {
        return out;
    }

    /** A list, page by page: a table starts printing with the first page; the other forms print it whole. */
    public void list(Iterator<List<Object>> pages, List<Column> columns, Function<Object, String> name) {
        if (kind == Kind.TABLE || kind == Kind.WIDE || kind == Kind.CUSTOM || kind == Kind.NAME) {
            List<Column> cols = kind == Kind.CUSTOM ? custom(argument) : visible(columns);
            Table table = new Table(cols.stream().map(Column::header).toList(), headers);
            boolean any = false;
            while (pages.hasNext()) {
                List<Object> page = pages.next();
                any |= !page.isEmpty();
                if (kind == Kind.NAME) {
                    page.forEach(item -> out.println(name.apply(item)));
                } else if (!page.isEmpty()) {
                    List<Function<Object, String>> values =
                            cols.stream().map(Column::value).toList();
                    table.print(out, Table.rows(page, values), painter(cols));
                }
            }
            if (!any && kind != Kind.NAME && headers) {
                table.print(out, List.of(), Table.Painter.NONE);
            }
            return;
        }
        List<Object> all = new ArrayList<>();
        pages.forEachRemaining(all::addAll);
        Map<String, Object> wrapped = new LinkedHashMap<>();
        wrapped.put("items", all);
        object(wrapped);
    }

    /** One object in the machine forms (json, yaml, jsonpath, name); the human form is the command's own. */
    public void object(Object value) {
        switch (kind) {
            case JSON -> out.println(pretty(value));
            case YAML -> out.print(yaml(value));
            case JSONPATH -> out.println(JsonPath.parse(argument).render(value));
            case CUSTOM -> {
                List<Column> cols = custom(argument);
                Table table = new Table(cols.stream().map(Column::header).toList(), headers);
                table.print(
                        out,
                        Table.rows(
                                List.of(value), cols.stream().map(Column::value).toList()),
                        Table.Painter.NONE);
            }
            default -> out.println(pretty(value));
        }
    }

    /** One object: its table row in the human forms (same columns as the list), else {@link #object}. */
    public void one(Object value, List<Column> columns, Function<Object, String> name) {
        if (kind == Kind.NAME) {
            out.println(name.apply(value));
        } else if (human()) {
            list(List.of(List.of(value)).iterator(), columns, name);
        } else {
            object(value);
        }
    }

    public static String pretty(Object value) {
        return Json.pretty(value);
    }

    public static String yaml(Object value) {
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        options.setAllowUnicode(true);
        return new Yaml(options).dump(value);
    }

    private List<Column> visible(List<Column> columns) {
        return columns.stream().filter(c -> kind == Kind.WIDE || !c.wide()).toList();
    }

    /** {@code NAME:.id,STATE:.state}: a header and a JSONPath per column. */
    static List<Column> custom(String spec) {
        List<Column> cols = new ArrayList<>();
        for (String part : spec.split(",")) {
            int colon = part.indexOf(':');
            if (colon <= 0 || colon == part.length() - 1) {
                throw new CliException(
                        Exit.USAGE,
                        "custom-columns: '" + part + "' is not HEADER:.path (e.g. NAME:.name,STATE:.state)");
            }
            String path = part.substring(colon + 1).strip();
            String expr = path.startsWith("{") && path.endsWith("}") ? path.substring(1, path.length() - 1) : path;
            JsonPath.eval(expr, Map.of());
            cols.add(Column.of(
                    part.substring(0, colon).strip(),
                    o -> String.join(
                            ",",
                            JsonPath.eval(expr, o).stream().map(JsonPath::print).toList())));
        }
        return cols;
    }

    private Table.Painter painter(List<Column> cols) {
        if (!colours) {
            return Table.Painter.NONE;
        }
        return (column, cell) -> {
            if (!cols.get(column).state()) {
                return cell;
            }
            String code = GOOD.contains(cell) ? "32" : BAD.contains(cell) ? "31" : WAITING.contains(cell) ? "33" : null;
            return code == null ? cell : "\u001b[" + code + "m" + cell + "\u001b[0m";
        };
    }
}
