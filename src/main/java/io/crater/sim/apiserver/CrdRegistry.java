package io.crater.sim.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The resources the store serves: the built-in ones and those a CustomResourceDefinition registers when it is
 * created (its served versions, scope and {@code status} subresource), gone when it is deleted. Discovery answers
 * from it. Used under the store's lock only.
 */
final class CrdRegistry {

    private final Map<String, ApiResource> resources = new LinkedHashMap<>();
    private final Map<String, Map.Entry<Long, JsonNode>> trees = new HashMap<>();

    /**
     * A stored CRD's tree, parsed once per version stored: every write of a custom resource reads its CRD's schema,
     * and a CRD's text is large. Callers must not change the tree.
     */
    JsonNode tree(String name, KubeStore.Entry stored) {
        Map.Entry<Long, JsonNode> parsed = trees.get(name);
        if (parsed == null || parsed.getKey() != stored.revision()) {
            parsed = Map.entry(stored.revision(), stored.object());
            trees.put(name, parsed);
        }
        return parsed.getValue();
    }

    void register(ApiResource r) {
        resources.put(r.key(), r);
    }

    /** The resource served at a group, version and plural, or null. */
    ApiResource resource(String group, String version, String plural) {
        ApiResource r = resources.get(group + "/" + plural);
        return r != null && r.serves(version) ? r : null;
    }

    /** The resource stored under a key ({@code group/plural}), or null. */
    ApiResource byKey(String key) {
        return resources.get(key);
    }

    List<ApiResource> resources() {
        return List.copyOf(resources.values());
    }

    /** The resource a CRD defines. */
    static ApiResource resourceOf(JsonNode crd) {
        JsonNode spec = crd.path("spec");
        List<String> versions = new ArrayList<>();
        boolean status = false;
        for (JsonNode v : spec.path("versions")) {
            if (v.path("served").asBoolean(true)) {
                versions.add(v.path("name").asText());
                status |= v.path("subresources").has("status");
            }
        }
        return new ApiResource(
                spec.path("group").asText(),
                List.copyOf(versions),
                spec.path("names").path("plural").asText(),
                spec.path("names").path("kind").asText(),
                "Namespaced".equals(spec.path("scope").asText()),
                status,
                false,
                Set.of(),
                texts(spec.path("names").path("shortNames")),
                texts(spec.path("names").path("categories")));
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(v -> out.add(v.asText()));
        return List.copyOf(out);
    }

    /** Forgets the resource of a deleted CRD; returns its key. */
    String unregister(JsonNode crd) {
        JsonNode spec = crd.path("spec");
        String key = spec.path("group").asText() + "/"
                + spec.path("names").path("plural").asText();
        resources.remove(key);
        trees.remove(crd.path("metadata").path("name").asText());
        return key;
    }

    /** The status of a CRD the server accepted: names accepted, established, its storage versions. */
    static ObjectNode established(ObjectNode crd) {
        ObjectNode status = JsonNodeFactory.instance.objectNode();
        ArrayNode conditions = status.putArray("conditions");
        for (String type : List.of("NamesAccepted", "Established")) {
            conditions
                    .addObject()
                    .put("type", type)
                    .put("status", "True")
                    .put("reason", type.equals("Established") ? "InitialNamesAccepted" : "NoConflicts");
        }
        status.set("acceptedNames", crd.path("spec").path("names"));
        ArrayNode stored = status.putArray("storedVersions");
        for (JsonNode v : crd.path("spec").path("versions")) {
            if (v.path("storage").asBoolean(false)) {
                stored.add(v.path("name").asText());
            }
        }
        return status;
    }
}
