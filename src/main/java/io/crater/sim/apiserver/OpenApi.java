package io.crater.sim.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code /openapi/v3}: the index of group versions and, per group version, an OpenAPI 3 document of the resources
 * served, as the real server publishes them. What kubectl reads of it: that the {@code PATCH} of each kind (found by
 * its {@code x-kubernetes-group-version-kind}) takes the {@code fieldValidation} query parameter, so {@code kubectl
 * apply} and {@code create} leave field validation to the server ({@link FieldValidation}) instead of downloading
 * {@code /openapi/v2} (not served) to validate themselves. A custom resource's schema is its CRD's
 * {@code openAPIV3Schema} (for {@code kubectl explain}); built-in kinds carry no schema.
 */
final class OpenApi {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final List<String> WRITE_PARAMETERS = List.of("dryRun", "fieldManager", "fieldValidation");

    private OpenApi() {}

    /** The index: {@code paths} with each group version's document URL, its hash as the real server adds it. */
    static String index(KubeStore store) {
        ObjectNode root = NODES.objectNode();
        ObjectNode paths = root.putObject("paths");
        Set<String> groupVersions = new LinkedHashSet<>();
        for (ApiResource r : store.resources()) {
            r.versions()
                    .forEach(v -> groupVersions.add(r.group().isEmpty() ? "api/" + v : "apis/" + r.group() + "/" + v));
        }
        for (String gv : groupVersions) {
            String doc = document(store, gv);
            paths.putObject(gv).put("serverRelativeURL", "/openapi/v3/" + gv + "?hash=" + hash(doc));
        }
        return root.toString();
    }

    /** The document of a group version ({@code api/v1}, {@code apis/batch.volcano.sh/v1alpha1}), or null. */
    static String document(KubeStore store, String groupVersion) {
        String[] p = groupVersion.split("/");
        String group = p[0].equals("api") && p.length == 2 ? "" : p.length == 3 ? p[1] : null;
        String version = p[p.length - 1];
        if (group == null) {
            return null;
        }
        ObjectNode doc = NODES.objectNode().put("openapi", "3.0.0");
        doc.putObject("info").put("title", "Kubernetes").put("version", "v1.33.0");
        ObjectNode paths = doc.putObject("paths");
        ObjectNode schemas = doc.putObject("components").putObject("schemas");
        boolean any = false;
        for (ApiResource r : store.resources()) {
            if (!r.group().equals(group) || !r.serves(version)) {
                continue;
            }
            any = true;
            String base = "/" + groupVersion + (r.namespaced() ? "/namespaces/{namespace}/" : "/") + r.plural();
            ObjectNode gvk = NODES.objectNode()
                    .put("group", group)
                    .put("version", version)
                    .put("kind", r.kind());
            ObjectNode item = paths.putObject(base + "/{name}");
            for (String verb : List.of("get", "put", "patch", "delete")) {
                operation(item, verb, gvk, verb.equals("get") || verb.equals("delete") ? List.of() : WRITE_PARAMETERS);
            }
            ObjectNode collection = paths.putObject(base);
            operation(collection, "get", gvk, List.of());
            operation(collection, "post", gvk, WRITE_PARAMETERS);
            JsonNode crd = FieldValidation.crdVersion(store, r, version);
            JsonNode schema = crd == null ? null : crd.path("schema").path("openAPIV3Schema");
            if (schema != null && schema.isObject()) {
                ObjectNode s = ((ObjectNode) schema).deepCopy();
                s.putArray("x-kubernetes-group-version-kind").add(gvk);
                schemas.set(schemaName(r, version), s);
            }
        }
        return any ? doc.toString() : null;
    }

    private static void operation(ObjectNode item, String verb, ObjectNode gvk, List<String> parameters) {
        ObjectNode op = item.putObject(verb);
        op.put("x-kubernetes-action", verb.equals("put") ? "update" : verb.equals("post") ? "create" : verb);
        op.set("x-kubernetes-group-version-kind", gvk);
        ArrayNode params = op.putArray("parameters");
        for (String name :
                verb.equals("patch") ? List.of("dryRun", "fieldManager", "fieldValidation", "force") : parameters) {
            params.addObject()
                    .put("name", name)
                    .put("in", "query")
                    .putObject("schema")
                    .put("type", name.equals("force") ? "boolean" : "string");
        }
        op.putObject("responses").putObject("200").put("description", "OK");
    }

    /** A custom resource's schema name as the real server writes it ({@code sh.volcano.batch.v1alpha1.Job}). */
    static String schemaName(ApiResource r, String version) {
        List<String> parts = new java.util.ArrayList<>(List.of(r.group().split("\\.")));
        java.util.Collections.reverse(parts);
        return String.join(".", parts) + "." + version + "." + r.kind();
    }

    private static String hash(String doc) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-512").digest(doc.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 32).toUpperCase();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
