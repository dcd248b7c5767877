package io.crater.sim.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.zjsonpatch.JsonPatch;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The patch types the store applies to an object: JSON patch (RFC 6902), JSON merge patch (RFC 7386), a strategic
 * merge patch, and server-side apply ({@link ServerSideApply} decides what an apply removes). The strategic merge is
 * simplified: lists of objects merge element by element on a merge key (the first of {@link #MERGE_KEYS} every element
 * carries, as {@code name} for containers, {@code containerPort} for ports, {@code mountPath} for volume mounts), other
 * lists are replaced; {@code $patch: delete|replace} and {@code $deleteFromPrimitiveList/} are honoured, the order
 * directives ({@code $setElementOrder/}, {@code $retainKeys}) are dropped.
 */
final class Patches {

    static final List<String> MERGE_KEYS = List.of("name", "containerPort", "mountPath", "port", "ip", "type");

    private Patches() {}

    /** The object a patch of this media type leaves (an apply is {@link ServerSideApply}'s); 415 for another type. */
    static JsonNode apply(String mediaType, JsonNode patch, ObjectNode target) {
        return switch (mediaType) {
            case "application/json-patch+json" -> JsonPatch.apply(patch, target);
            case "application/merge-patch+json" -> StoredObjects.mergePatch(target, patch);
            case "application/strategic-merge-patch+json" -> strategic(target, patch, true);
            default ->
                throw new ApiError(
                        415,
                        "UnsupportedMediaType",
                        "the body of the request was in an unknown format - accepted media types include: "
                                + String.join(", ", RequestBodies.PATCH_TYPES));
        };
    }

    /**
     * Merges {@code patch} into {@code target}: objects member by member, lists of keyed objects by key, anything else
     * replaced. With {@code nullDeletes} (a strategic merge patch) a {@code null} removes the member; in an applied
     * configuration it is kept out.
     */
    static JsonNode strategic(JsonNode target, JsonNode patch, boolean nullDeletes) {
        if (!patch.isObject()) {
            return patch.deepCopy();
        }
        if ("replace".equals(patch.path("$patch").asText())) {
            ObjectNode replaced = ((ObjectNode) patch).deepCopy();
            replaced.remove("$patch");
            return replaced;
        }
        ObjectNode out = target != null && target.isObject()
                ? ((ObjectNode) target).deepCopy()
                : JsonNodeFactory.instance.objectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = patch.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            String key = f.getKey();
            JsonNode value = f.getValue();
            if (key.startsWith("$deleteFromPrimitiveList/")) {
                deleteFromList(out, key.substring(key.indexOf('/') + 1), value);
            } else if (key.startsWith("$")) {
                continue;
            } else if (value.isNull()) {
                if (nullDeletes) {
                    out.remove(key);
                }
            } else if (value.isObject() && "delete".equals(value.path("$patch").asText())) {
                out.remove(key);
            } else if (value.isArray() && out.get(key) instanceof ArrayNode live && mergeKey(live, value) != null) {
                out.set(key, mergeList(live, (ArrayNode) value, mergeKey(live, value), nullDeletes));
            } else {
                out.set(key, strategic(out.get(key), value, nullDeletes));
            }
        }
        return out;
    }

    /** The key both lists' elements all carry, or null when they are not lists of keyed objects. */
    static String mergeKey(JsonNode live, JsonNode patch) {
        for (String key : MERGE_KEYS) {
            if (allHave(live, key) && allHave(patch, key) && !patch.isEmpty()) {
                return key;
            }
        }
        return null;
    }

    private static boolean allHave(JsonNode list, String key) {
        for (JsonNode e : list) {
            if (!e.isObject()
                    || !e.has(key) && !"delete".equals(e.path("$patch").asText())) {
                return false;
            }
        }
        return true;
    }

    private static ArrayNode mergeList(ArrayNode live, ArrayNode patch, String key, boolean nullDeletes) {
        List<JsonNode> out = new ArrayList<>();
        live.forEach(out::add);
        for (JsonNode p : patch) {
            int at = -1;
            for (int i = 0; i < out.size(); i++) {
                if (out.get(i).path(key).equals(p.path(key))) {
                    at = i;
                }
            }
            if ("delete".equals(p.path("$patch").asText())) {
                if (at >= 0) {
                    out.remove(at);
                }
            } else if (at >= 0) {
                out.set(at, strategic(out.get(at), p, nullDeletes));
            } else {
                out.add(strategic(null, p, nullDeletes));
            }
        }
        ArrayNode merged = JsonNodeFactory.instance.arrayNode();
        out.forEach(merged::add);
        return merged;
    }

    private static void deleteFromList(ObjectNode out, String field, JsonNode values) {
        if (out.get(field) instanceof ArrayNode list) {
            for (int i = list.size() - 1; i >= 0; i--) {
                for (JsonNode v : values) {
                    if (list.get(i).equals(v)) {
                        list.remove(i);
                        break;
                    }
                }
            }
        }
    }
}
