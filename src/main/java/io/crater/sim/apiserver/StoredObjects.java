package io.crater.sim.apiserver;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/** What the store reads of and writes into stored objects, and the errors it answers about them, as the API server's. */
final class StoredObjects {

    private static final ObjectMapper JSON = new ObjectMapper();

    private StoredObjects() {}

    static KubeStore.Entry entry(String key, ObjectNode object, long rv) {
        Map<String, String> labels = new HashMap<>();
        object.path("metadata")
                .path("labels")
                .fields()
                .forEachRemaining(f -> labels.put(f.getKey(), f.getValue().asText()));
        String namespace = object.path("metadata").path("namespace").asText(null);
        try {
            return new KubeStore.Entry(key, rv, JSON.writeValueAsString(object), Map.copyOf(labels), namespace);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A stored object's tree, parsed from its text. */
    static ObjectNode parse(String json) {
        try {
            return (ObjectNode) JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored object is not JSON", e);
        }
    }

    /** Whether a stored object matches a field selector; an empty selector matches without reading the object. */
    static boolean fieldsMatch(Selectors.Selector fields, ApiResource r, KubeStore.Entry e) {
        return fields.terms().isEmpty() || fields.matches(fieldValues(r, e.object()));
    }

    static Map<String, String> fieldValues(ApiResource r, JsonNode object) {
        Map<String, String> out = new HashMap<>();
        out.put("metadata.name", object.path("metadata").path("name").asText(""));
        out.put("metadata.namespace", object.path("metadata").path("namespace").asText(""));
        for (String f : r.fields()) {
            String v = Selectors.at(object, f);
            out.put(f, v == null ? (f.equals("spec.unschedulable") ? "false" : "") : v);
        }
        return out;
    }

    static JsonNode specOf(ObjectNode object) {
        ObjectNode copy = object.deepCopy();
        copy.remove("metadata");
        copy.remove("status");
        return copy;
    }

    /** RFC 7386: objects merge member by member, {@code null} deletes, anything else (arrays too) replaces. */
    static JsonNode mergePatch(JsonNode target, JsonNode patch) {
        if (!patch.isObject()) {
            return patch.deepCopy();
        }
        ObjectNode out = target != null && target.isObject()
                ? ((ObjectNode) target).deepCopy()
                : JsonNodeFactory.instance.objectNode();
        patch.fields().forEachRemaining(f -> {
            if (f.getValue().isNull()) {
                out.remove(f.getKey());
            } else {
                out.set(f.getKey(), mergePatch(out.get(f.getKey()), f.getValue()));
            }
        });
        return out;
    }

    static String versionOf(String apiVersion, ApiResource r) {
        int slash = apiVersion.indexOf('/');
        String group = slash < 0 ? "" : apiVersion.substring(0, slash);
        return group.equals(r.group()) ? apiVersion.substring(slash + 1) : "";
    }

    static String apiVersionOf(JsonNode object) {
        String v = object.path("apiVersion").asText();
        int slash = v.indexOf('/');
        return slash < 0 ? v : v.substring(slash + 1);
    }

    static void checkName(ApiResource r, String name) {
        boolean ok = r.key().equals("/events")
                ? name.matches("[a-z0-9]([-a-z0-9.]*[a-z0-9])?")
                : name.matches("[a-z0-9]([-a-z0-9.]*[a-z0-9])?") && name.length() <= 253;
        if (!ok) {
            throw new ApiError(
                    422,
                    "Invalid",
                    r.kind() + " \"" + name + "\" is invalid: metadata.name: Invalid value: \"" + name
                            + "\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters,"
                            + " '-' or '.', and must start and end with an alphanumeric character");
        }
    }

    static ObjectNode metadata(ObjectNode body) {
        return child(body, "metadata");
    }

    static ObjectNode child(ObjectNode parent, String field) {
        return parent.get(field) instanceof ObjectNode o ? o : parent.putObject(field);
    }

    static String text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    static String randomSuffix() {
        String alphabet = "bcdfghjklmnpqrstvwxz2456789";
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            s.append(alphabet.charAt(ThreadLocalRandom.current().nextInt(alphabet.length())));
        }
        return s.toString();
    }

    static String plural(ApiResource r) {
        return r.group().isEmpty() ? r.plural() : r.plural() + "." + r.group();
    }

    static ApiError notFound(ApiResource r, String name) {
        return new ApiError(404, "NotFound", plural(r) + " \"" + name + "\" not found");
    }

    static ApiError conflict(ApiResource r, String name) {
        return new ApiError(
                409,
                "Conflict",
                "Operation cannot be fulfilled on " + plural(r) + " \"" + name
                        + "\": the object has been modified; please apply your changes to the latest version and try again");
    }

    /** The status a new object starts with: what the API server itself sets, none where a controller writes it. */
    static void initialStatus(ApiResource r, ObjectNode body) {
        switch (r.key()) {
            case "/pods" ->
                body.set("status", JsonNodeFactory.instance.objectNode().put("phase", "Pending"));
            case "/namespaces" ->
                body.set("status", JsonNodeFactory.instance.objectNode().put("phase", "Active"));
            case "apiextensions.k8s.io/customresourcedefinitions" -> body.set("status", CrdRegistry.established(body));
            default -> {
                if (r.statusSubresource() && !r.group().isEmpty()) {
                    body.remove("status");
                }
            }
        }
    }

    /** 400 when a body names another kind or an unserved version; fills in the apiVersion when it names none. */
    static void checkKind(ApiResource r, String version, ObjectNode body) {
        String kind = text(body, "kind");
        if (kind != null && !kind.isEmpty() && !kind.equals(r.kind())) {
            throw new ApiError(400, "BadRequest", "the kind of the object (" + kind + ") does not match " + r.kind());
        }
        String apiVersion = text(body, "apiVersion");
        if (apiVersion != null && !apiVersion.isEmpty() && !r.serves(versionOf(apiVersion, r))) {
            throw new ApiError(400, "BadRequest", "apiVersion " + apiVersion + " is not served for " + plural(r));
        }
        if (apiVersion == null || apiVersion.isEmpty()) {
            body.put("apiVersion", r.apiVersion(version));
        }
    }
}
