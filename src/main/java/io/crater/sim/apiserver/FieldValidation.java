package io.crater.sim.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Server-side field validation ({@code fieldValidation=Strict|Warn|Ignore}, {@code Warn} when absent, as the real
 * server defaults): the fields of a custom resource its CRD's {@code openAPIV3Schema} does not declare (outside
 * {@code x-kubernetes-preserve-unknown-fields} and {@code additionalProperties}, and outside {@code metadata}) are
 * refused with {@code Strict} (400, in the real server's words); with {@code Warn} they are returned as warnings and,
 * as with {@code Ignore}, pruned from the object before it is stored, as the real server prunes what a structural
 * schema does not declare. Built-in kinds are not checked: the simulated cluster holds no schema of them.
 */
final class FieldValidation {

    private FieldValidation() {}

    /** The directive of a request's {@code fieldValidation} parameter; 400 for an unknown one. */
    static String directive(String param) {
        if (param == null || param.isEmpty()) {
            return "Warn";
        }
        if (!List.of("Strict", "Warn", "Ignore").contains(param)) {
            throw new ApiError(
                    400,
                    "BadRequest",
                    "fieldValidation: Unsupported value: \"" + param
                            + "\": supported values: \"Ignore\", \"Strict\", \"Warn\"");
        }
        return param;
    }

    /** The warnings for an object written; 400 under {@code Strict} when it has fields its schema does not declare. */
    static List<String> check(String directive, ApiResource r, String version, JsonNode schema, JsonNode object) {
        if (schema == null) {
            return List.of();
        }
        List<String> unknown = new ArrayList<>();
        walk(schema, object, "", unknown, !directive.equals("Strict"));
        List<String> messages = new ArrayList<>();
        unknown.forEach(f -> messages.add("unknown field \"" + f + "\""));
        if (unknown.isEmpty() || !directive.equals("Strict")) {
            return directive.equals("Warn") ? messages : List.of();
        }
        throw new ApiError(
                400,
                "BadRequest",
                r.kind() + " in version \"" + version + "\" cannot be handled as a " + r.kind()
                        + ": strict decoding error: " + String.join(", ", messages));
    }

    /** The paths ({@code spec.foo}, {@code spec.tasks[0].bar}) of the fields of {@code object} the schema lacks. */
    static List<String> unknown(JsonNode schema, JsonNode object) {
        List<String> out = new ArrayList<>();
        walk(schema, object, "", out, false);
        return out;
    }

    private static void walk(JsonNode schema, JsonNode value, String path, List<String> out, boolean prune) {
        if (value.isArray() && schema.has("items")) {
            for (int i = 0; i < value.size(); i++) {
                walk(schema.get("items"), value.get(i), path + "[" + i + "]", out, prune);
            }
            return;
        }
        if (!value.isObject()) {
            return;
        }
        boolean preserve = schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
        JsonNode properties = schema.path("properties");
        JsonNode additional = schema.get("additionalProperties");
        for (Iterator<Map.Entry<String, JsonNode>> it = value.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            String at = path.isEmpty() ? f.getKey() : path + "." + f.getKey();
            if (path.isEmpty() && f.getKey().equals("metadata")) {
                continue;
            }
            if (properties.has(f.getKey())) {
                walk(properties.get(f.getKey()), f.getValue(), at, out, prune);
            } else if (additional != null && additional.isObject()) {
                walk(additional, f.getValue(), at, out, prune);
            } else if (!preserve && !(additional != null && additional.asBoolean(false))) {
                out.add(at);
                if (prune) {
                    it.remove();
                }
            }
        }
    }

    /** The served version of a custom resource's CRD (its schema, printer columns), or null for a built-in kind. */
    static JsonNode crdVersion(KubeStore store, ApiResource r, String version) {
        if (r.unconditionalUpdate()) {
            return null;
        }
        JsonNode crd = store.crd(r.plural() + "." + r.group());
        if (crd == null) {
            return null;
        }
        for (JsonNode v : crd.path("spec").path("versions")) {
            if (v.path("name").asText().equals(version)) {
                return v;
            }
        }
        return null;
    }
}
