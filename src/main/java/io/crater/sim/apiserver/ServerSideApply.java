package io.crater.sim.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Server-side apply ({@code PATCH} with {@code application/apply-patch+yaml} and a {@code fieldManager}), simplified: an
 * apply creates the object when it is missing, otherwise merges the applied configuration into it as
 * {@link Patches#strategic} does, and removes what the same manager applied last time and no longer applies, unless
 * another manager's apply holds it. Each manager's applied fields are kept in {@code metadata.managedFields} as an
 * {@code Apply} entry with {@code FieldsV1}, where a list is one field ({@code f:containers}), not keyed by its
 * elements. Writes other than apply record no entries, and conflicts between managers are not detected ({@code force}
 * changes nothing).
 */
final class ServerSideApply {

    private ServerSideApply() {}

    /** The object an apply of {@code applied} by {@code manager} makes of {@code live} (null when it is new). */
    static ObjectNode apply(ObjectNode live, ObjectNode applied, String manager, String time) {
        if (manager == null || manager.isBlank()) {
            throw new ApiError(
                    400, "BadRequest", "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value");
        }
        ObjectNode fields = fieldSet(applied);
        ObjectNode out;
        List<JsonNode> others = new ArrayList<>();
        if (live == null) {
            out = applied.deepCopy();
        } else {
            out = (ObjectNode) Patches.strategic(live, applied, false);
            JsonNode previous = null;
            for (JsonNode entry : live.path("metadata").path("managedFields")) {
                if (entry.path("manager").asText().equals(manager)
                        && entry.path("operation").asText().equals("Apply")) {
                    previous = entry.path("fieldsV1");
                } else {
                    others.add(entry.path("fieldsV1"));
                }
            }
            if (previous != null) {
                removeDropped(out, previous, fields, others);
            }
        }
        ObjectNode meta = StoredObjects.metadata(out);
        ArrayNode managed = meta.putArray("managedFields");
        if (live != null) {
            for (JsonNode entry : live.path("metadata").path("managedFields")) {
                if (!(entry.path("manager").asText().equals(manager)
                        && entry.path("operation").asText().equals("Apply"))) {
                    managed.add(entry);
                }
            }
        }
        managed.addObject()
                .put("manager", manager)
                .put("operation", "Apply")
                .put("apiVersion", applied.path("apiVersion").asText())
                .put("time", time)
                .put("fieldsType", "FieldsV1")
                .set("fieldsV1", fields);
        return out;
    }

    /** The {@code FieldsV1} set of an applied configuration: {@code f:<name>} per member, a list as one field. */
    static ObjectNode fieldSet(JsonNode applied) {
        ObjectNode set = JsonNodeFactory.instance.objectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = applied.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            if (f.getValue().isNull() || f.getKey().equals("managedFields")) {
                continue;
            }
            set.set("f:" + f.getKey(), f.getValue().isObject() ? fieldSet(f.getValue()) : set.objectNode());
        }
        return set;
    }

    /** Removes from {@code out} the fields in {@code previous} that are neither in {@code now} nor held by others. */
    private static void removeDropped(ObjectNode out, JsonNode previous, JsonNode now, List<JsonNode> others) {
        for (Iterator<Map.Entry<String, JsonNode>> it = previous.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            String name = f.getKey().substring(2);
            List<JsonNode> held = new ArrayList<>();
            others.forEach(o -> {
                if (o.has(f.getKey())) {
                    held.add(o.get(f.getKey()));
                }
            });
            if (!now.has(f.getKey())) {
                if (held.isEmpty()) {
                    out.remove(name);
                }
            } else if (f.getValue().size() > 0 && out.get(name) instanceof ObjectNode child) {
                removeDropped(child, f.getValue(), now.get(f.getKey()), held);
            }
        }
    }
}
