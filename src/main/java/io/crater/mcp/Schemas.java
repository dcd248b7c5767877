package io.crater.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The JSON Schemas of the tools, built from a few shapes, and the check of a call's arguments against an input
 * schema: the subset the tools use (object with properties, required, no other properties; string with enum and
 * maximum length; integer with bounds; boolean; object).
 */
final class Schemas {

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private Schemas() {}

    static ObjectNode string(String description) {
        return F.objectNode().put("type", "string").put("description", description);
    }

    static ObjectNode string(String description, int maxLength) {
        return string(description).put("maxLength", maxLength);
    }

    static ObjectNode oneOf(String description, String... values) {
        ObjectNode s = string(description);
        ArrayNode e = s.putArray("enum");
        for (String v : values) {
            e.add(v);
        }
        return s;
    }

    static ObjectNode integer(String description, int min, int max) {
        return F.objectNode()
                .put("type", "integer")
                .put("description", description)
                .put("minimum", min)
                .put("maximum", max);
    }

    static ObjectNode bool(String description, boolean defaultValue) {
        return F.objectNode()
                .put("type", "boolean")
                .put("description", description)
                .put("default", defaultValue);
    }

    static ObjectNode anyObject(String description) {
        return F.objectNode().put("type", "object").put("description", description);
    }

    /** A value of the given JSON types (e.g. {@code "string", "null"}). */
    static ObjectNode typed(String... types) {
        ObjectNode s = F.objectNode();
        if (types.length == 1) {
            s.put("type", types[0]);
        } else {
            ArrayNode t = s.putArray("type");
            for (String type : types) {
                t.add(type);
            }
        }
        return s;
    }

    static ObjectNode arrayOf(ObjectNode items) {
        ObjectNode s = F.objectNode().put("type", "array");
        s.set("items", items);
        return s;
    }

    /** An input schema: these properties, the required ones, nothing else. */
    static ObjectNode input(Map<String, ObjectNode> properties, String... required) {
        ObjectNode s = F.objectNode().put("type", "object");
        ObjectNode props = s.putObject("properties");
        properties.forEach(props::set);
        if (required.length > 0) {
            ArrayNode r = s.putArray("required");
            for (String name : required) {
                r.add(name);
            }
        }
        s.put("additionalProperties", false);
        return s;
    }

    /**
     * An output schema: either the result, with these properties and the required ones, or {@code problem} when
     * the call failed (a failed call's structured content is validated against the same schema).
     */
    static ObjectNode output(Map<String, ObjectNode> properties, String... required) {
        ObjectNode s = F.objectNode().put("type", "object");
        ObjectNode props = s.putObject("properties");
        properties.forEach(props::set);
        props.set("problem", problem());
        ArrayNode any = s.putArray("anyOf");
        ArrayNode ok = any.addObject().putArray("required");
        for (String name : required) {
            ok.add(name);
        }
        any.addObject().putArray("required").add("problem");
        return s;
    }

    /** What a failed call says: the problem the HTTP API would answer. */
    static ObjectNode problem() {
        ObjectNode s = F.objectNode().put("type", "object");
        ObjectNode p = s.putObject("properties");
        p.set("status", typed("integer"));
        p.set("code", typed("string"));
        p.set("detail", typed("string"));
        p.set("reasons", arrayOf(typed("object")));
        p.set("errors", arrayOf(typed("object")));
        s.putArray("required").add("status").add("code").add("detail");
        return s;
    }

    /** What is wrong with these arguments under this input schema, one sentence per problem; empty when valid. */
    static List<String> violations(ObjectNode schema, JsonNode arguments) {
        List<String> out = new ArrayList<>();
        if (arguments == null || arguments.isNull()) {
            arguments = F.objectNode();
        }
        if (!arguments.isObject()) {
            out.add("arguments must be an object");
            return out;
        }
        JsonNode props = schema.path("properties");
        for (JsonNode r : schema.path("required")) {
            if (!arguments.has(r.asText()) || arguments.get(r.asText()).isNull()) {
                out.add("argument '" + r.asText() + "' is required");
            }
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = arguments.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode p = props.get(e.getKey());
            if (p == null) {
                out.add("unknown argument '" + e.getKey() + "'");
            } else if (!e.getValue().isNull()) {
                check(e.getKey(), p, e.getValue(), out);
            }
        }
        return out;
    }

    private static void check(String name, JsonNode p, JsonNode v, List<String> out) {
        switch (p.path("type").asText()) {
            case "string" -> {
                if (!v.isTextual()) {
                    out.add("argument '" + name + "' must be a string");
                } else if (p.has("maxLength")
                        && v.asText().length() > p.get("maxLength").asInt()) {
                    out.add("argument '" + name + "' must be at most "
                            + p.get("maxLength").asInt() + " characters");
                } else if (p.has("enum") && !contains(p.get("enum"), v.asText())) {
                    out.add("argument '" + name + "' must be one of " + p.get("enum"));
                }
            }
            case "integer" -> {
                if (!v.canConvertToLong() || !v.isIntegralNumber()) {
                    out.add("argument '" + name + "' must be an integer");
                } else if (v.asLong() < p.path("minimum").asLong(Long.MIN_VALUE)
                        || v.asLong() > p.path("maximum").asLong(Long.MAX_VALUE)) {
                    out.add("argument '" + name + "' must be between " + p.path("minimum") + " and "
                            + p.path("maximum"));
                }
            }
            case "boolean" -> {
                if (!v.isBoolean()) {
                    out.add("argument '" + name + "' must be true or false");
                }
            }
            case "object" -> {
                if (!v.isObject()) {
                    out.add("argument '" + name + "' must be an object");
                }
            }
            default -> throw new IllegalStateException("no check for the schema of " + name);
        }
    }

    private static boolean contains(JsonNode values, String v) {
        for (JsonNode e : values) {
            if (e.asText().equals(v)) {
                return true;
            }
        }
        return false;
    }
}
