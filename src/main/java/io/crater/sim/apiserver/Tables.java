package io.crater.sim.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.http.HttpServerRequest;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * Server-side printing: a list or an object answered as a {@code meta.k8s.io} {@code Table} when the client asks for
 * one ({@code Accept: application/json;as=Table;v=v1;g=meta.k8s.io}, what {@code kubectl get} sends), with the columns
 * the real server prints for the kind ({@link BuiltInColumns}) or, for a custom resource, its CRD's
 * {@code additionalPrinterColumns} (simple JSONPaths such as {@code .status.state.phase}) after {@code Name}; other
 * kinds get {@code Name} and {@code Age}. Each row carries the object's metadata ({@code includeObject=Metadata}, the
 * default), the whole object ({@code Object}) or nothing ({@code None}).
 */
final class Tables {

    /** A column: its header, type, priority (0 shown always, 1 with {@code -o wide}) and how a cell is read. */
    record Column(String name, String type, int priority, Cell cell) {}

    /** Reads one cell of a row: a String, a Number, a Boolean or null. */
    interface Cell {
        Object of(JsonNode object, Instant now);
    }

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final ObjectMapper JSON = new ObjectMapper();

    private Tables() {}

    /** The Table version an {@code Accept} header asks for ({@code v1} or {@code v1beta1}), or null for none. */
    static String requested(String accept) {
        if (accept == null) {
            return null;
        }
        for (String type : accept.split(",")) {
            String t = type.replace(" ", "");
            if (t.contains("as=Table") && t.contains("g=meta.k8s.io") && t.startsWith("application/json")) {
                return t.contains("v=v1beta1") ? "v1beta1" : t.contains("v=v1") ? "v1" : null;
            }
        }
        return null;
    }

    /** The columns of a resource; {@code crdVersion} is its CRD's served version (null for a built-in kind). */
    static List<Column> columns(ApiResource r, JsonNode crdVersion) {
        List<Column> out = new ArrayList<>();
        List<Column> builtIn = BuiltInColumns.of(r.key());
        if (!r.key().equals("/events")) {
            out.add(new Column(
                    "Name",
                    "string",
                    0,
                    (o, now) -> o.path("metadata").path("name").asText()));
        }
        if (builtIn != null) {
            out.addAll(builtIn);
            return out;
        }
        JsonNode declared = crdVersion == null ? null : crdVersion.get("additionalPrinterColumns");
        if (declared == null || declared.isEmpty()) {
            out.add(age());
            return out;
        }
        for (JsonNode c : declared) {
            String path = c.path("jsonPath").asText();
            String type = c.path("type").asText("string");
            out.add(new Column(c.path("name").asText(), type, c.path("priority").asInt(0), (o, now) -> {
                JsonNode v = at(o, path);
                if (v == null || v.isNull()) {
                    return null;
                }
                return switch (type) {
                    case "date" -> since(v.asText(), now);
                    case "integer" -> v.isNumber() ? (Object) v.asLong() : v.asText();
                    case "number" -> v.isNumber() ? (Object) v.asDouble() : v.asText();
                    case "boolean" -> v.isBoolean() ? (Object) v.asBoolean() : v.asText();
                    default -> v.isValueNode() ? v.asText() : v.toString();
                };
            }));
        }
        return out;
    }

    /** A read answered as the Table the request asks for, or as it is when it asks for none. */
    static String answer(
            HttpServerRequest req, KubeStore store, ApiResource r, String version, String json, Instant now) {
        String tableVersion = requested(req.getHeader("Accept"));
        if (tableVersion == null) {
            return json;
        }
        try {
            return table(
                    columns(r, FieldValidation.crdVersion(store, r, version)),
                    JSON.readTree(json),
                    tableVersion,
                    req.getParam("includeObject"),
                    now);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static Column age() {
        return new Column(
                "Age",
                "string",
                0,
                (o, now) -> since(o.path("metadata").path("creationTimestamp").asText(""), now));
    }

    /** The Table of a list document (or of one object), in the requested Table version. */
    static String table(
            List<Column> columns, JsonNode document, String tableVersion, String includeObject, Instant now) {
        ObjectNode table = NODES.objectNode().put("kind", "Table").put("apiVersion", "meta.k8s.io/" + tableVersion);
        ObjectNode meta = table.putObject("metadata");
        boolean list = document.has("items");
        JsonNode listMeta = list ? document.path("metadata") : NODES.objectNode();
        if (listMeta.has("resourceVersion")) {
            meta.set("resourceVersion", listMeta.get("resourceVersion"));
        }
        if (listMeta.has("continue")) {
            meta.set("continue", listMeta.get("continue"));
        }
        ArrayNode definitions = table.putArray("columnDefinitions");
        for (Column c : columns) {
            definitions
                    .addObject()
                    .put("name", c.name())
                    .put("type", c.type().equals("date") ? "string" : c.type())
                    .put("format", c.name().equals("Name") ? "name" : "")
                    .put("description", c.name())
                    .put("priority", c.priority());
        }
        ArrayNode rows = table.putArray("rows");
        for (JsonNode object : list ? document.get("items") : List.of(document)) {
            ObjectNode row = rows.addObject();
            ArrayNode cells = row.putArray("cells");
            for (Column c : columns) {
                Object v = c.cell().of(object, now);
                if (v == null) {
                    cells.addNull();
                } else if (v instanceof Long l) {
                    cells.add(l);
                } else if (v instanceof Integer i) {
                    cells.add(i);
                } else if (v instanceof Double n) {
                    cells.add(n);
                } else if (v instanceof Boolean b) {
                    cells.add(b);
                } else {
                    cells.add(v.toString());
                }
            }
            switch (includeObject == null ? "Metadata" : includeObject) {
                case "None" -> {}
                case "Object" -> row.set("object", object);
                default ->
                    row.putObject("object")
                            .put("kind", "PartialObjectMetadata")
                            .put("apiVersion", "meta.k8s.io/v1")
                            .set("metadata", object.path("metadata"));
            }
        }
        return table.toString();
    }

    /**
     * The value at a simple JSONPath ({@code .status.state.phase}, {@code .spec.tasks[0].name}, {@code {.x}} braces
     * allowed), or null when the object has none.
     */
    static JsonNode at(JsonNode object, String path) {
        String p = path.trim();
        if (p.startsWith("{") && p.endsWith("}")) {
            p = p.substring(1, p.length() - 1);
        }
        JsonNode node = object;
        for (String part : p.replace("[", ".[").split("\\.")) {
            if (part.isEmpty()) {
                continue;
            }
            if (part.startsWith("[") && part.endsWith("]")) {
                try {
                    node = node.path(Integer.parseInt(part.substring(1, part.length() - 1)));
                } catch (NumberFormatException e) {
                    return null;
                }
            } else {
                node = node.path(part);
            }
            if (node.isMissingNode()) {
                return null;
            }
        }
        return node;
    }

    /** The age of a timestamp as kubectl prints it ({@code 45s}, {@code 3m12s}, {@code 5h}, {@code 2d3h}). */
    static String since(String timestamp, Instant now) {
        if (timestamp == null || timestamp.isEmpty()) {
            return "<unknown>";
        }
        try {
            return human(Duration.between(Instant.parse(timestamp), now));
        } catch (DateTimeParseException e) {
            return "<unknown>";
        }
    }

    /** Kubernetes' {@code duration.HumanDuration}. */
    static String human(Duration d) {
        long seconds = d.getSeconds();
        if (seconds < -1) {
            return "<invalid>";
        } else if (seconds < 0) {
            return "0s";
        } else if (seconds < 120) {
            return seconds + "s";
        }
        long minutes = d.toMinutes();
        if (minutes < 10) {
            long s = seconds % 60;
            return s == 0 ? minutes + "m" : minutes + "m" + s + "s";
        } else if (minutes < 180) {
            return minutes + "m";
        }
        long hours = d.toHours();
        if (hours < 8) {
            long m = minutes % 60;
            return m == 0 ? hours + "h" : hours + "h" + m + "m";
        } else if (hours < 48) {
            return hours + "h";
        } else if (hours < 24 * 8) {
            long h = hours % 24;
            return h == 0 ? hours / 24 + "d" : hours / 24 + "d" + h + "h";
        } else if (hours < 24 * 365 * 2) {
            return hours / 24 + "d";
        } else if (hours < 24 * 365 * 8) {
            long days = (hours / 24) % 365;
            return days == 0 ? hours / 24 / 365 + "y" : hours / 24 / 365 + "y" + days + "d";
        }
        return hours / 24 / 365 + "y";
    }
}
