package io.crater.sim.apiserver;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.http.HttpServerRequest;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The API server's discovery ({@code /api}, {@code /api/v1}, {@code /apis}, {@code /apis/{group}/{version}}, with
 * short names and categories), {@code /openapi/v3} ({@link OpenApi}), {@code /version} and the health paths, answered from the store's registry of resources, so a CRD's resources appear
 * once it is created.
 */
final class Discovery {

    private final KubeStore store;

    Discovery(KubeStore store) {
        this.store = store;
    }

    /** Discovery and health: answers and returns true when the path is one of them. */
    boolean serve(HttpServerRequest req, List<String> seg) {
        String path = String.join("/", seg);
        switch (path) {
            case "version" ->
                InProcessApiServer.ok(
                        req,
                        200,
                        "{\"major\":\"1\",\"minor\":\"31\",\"gitVersion\":\"v1.31.0-crater-sim\",\"platform\":\"linux/amd64\"}");
            case "healthz", "readyz", "livez" ->
                req.response().putHeader("Content-Type", "text/plain").end("ok");
            case "api" ->
                InProcessApiServer.ok(
                        req, 200, "{\"kind\":\"APIVersions\",\"versions\":[\"v1\"],\"serverAddressByClientCIDRs\":[]}");
            case "api/v1" -> InProcessApiServer.ok(req, 200, resourceList("", "v1"));
            case "apis" -> InProcessApiServer.ok(req, 200, groupList());
            case "openapi/v3" -> InProcessApiServer.ok(req, 200, OpenApi.index(store));
            default -> {
                if (seg.size() > 2 && seg.get(0).equals("openapi") && seg.get(1).equals("v3")) {
                    String doc = OpenApi.document(store, String.join("/", seg.subList(2, seg.size())));
                    if (doc == null) {
                        return false;
                    }
                    InProcessApiServer.ok(req, 200, doc);
                    return true;
                }
                if (seg.size() == 3 && seg.get(0).equals("apis")) {
                    if (store.resources().stream()
                            .noneMatch(r -> r.group().equals(seg.get(1)) && r.serves(seg.get(2)))) {
                        return false;
                    }
                    InProcessApiServer.ok(req, 200, resourceList(seg.get(1), seg.get(2)));
                    return true;
                }
                return false;
            }
        }
        return true;
    }

    private String groupList() {
        ObjectNode list = JsonNodeFactory.instance
                .objectNode()
                .put("kind", "APIGroupList")
                .put("apiVersion", "v1");
        ArrayNode groups = list.putArray("groups");
        Set<String> names = new LinkedHashSet<>();
        store.resources().stream().filter(r -> !r.group().isEmpty()).forEach(r -> names.add(r.group()));
        for (String g : names) {
            ObjectNode group = groups.addObject().put("name", g);
            ArrayNode versions = group.putArray("versions");
            Set<String> vs = new LinkedHashSet<>();
            store.resources().stream().filter(r -> r.group().equals(g)).forEach(r -> vs.addAll(r.versions()));
            vs.forEach(
                    v -> versions.addObject().put("groupVersion", g + "/" + v).put("version", v));
            String preferred = vs.iterator().next();
            group.putObject("preferredVersion")
                    .put("groupVersion", g + "/" + preferred)
                    .put("version", preferred);
        }
        return list.toString();
    }

    private String resourceList(String group, String version) {
        ObjectNode list = JsonNodeFactory.instance
                .objectNode()
                .put("kind", "APIResourceList")
                .put("apiVersion", "v1")
                .put("groupVersion", group.isEmpty() ? version : group + "/" + version);
        ArrayNode items = list.putArray("resources");
        for (ApiResource r : store.resources()) {
            if (!r.group().equals(group) || !r.serves(version)) {
                continue;
            }
            ObjectNode item = items.addObject()
                    .put("name", r.plural())
                    .put("singularName", r.kind().toLowerCase())
                    .put("namespaced", r.namespaced())
                    .put("kind", r.kind());
            if (!r.shortNames().isEmpty()) {
                r.shortNames().forEach(item.putArray("shortNames")::add);
            }
            if (!r.categories().isEmpty()) {
                r.categories().forEach(item.putArray("categories")::add);
            }
            ArrayNode verbs = item.putArray("verbs");
            List.of("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch")
                    .forEach(verbs::add);
            if (r.statusSubresource()) {
                ObjectNode status = items.addObject()
                        .put("name", r.plural() + "/status")
                        .put("singularName", "")
                        .put("namespaced", r.namespaced())
                        .put("kind", r.kind());
                status.putArray("verbs").add("get").add("patch").add("update");
            }
        }
        return list.toString();
    }
}
