package io.crater.sim.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The {@code pods/{name}/eviction} subresource as the real API server serves it: a pod is deleted (with the Eviction's
 * delete options) unless the one PodDisruptionBudget whose selector matches it would be violated, which answers 429
 * TooManyRequests; a pod matched by more than one budget answers 500, as upstream. The simulated cluster runs no
 * disruption controller, so the budget's allowance is computed from the pods at the time of the request: the pods of
 * the namespace the selector matches and that are not being deleted count as expected, those running and ready
 * (or running without conditions) as healthy, and {@code minAvailable} or {@code maxUnavailable} (a number or a
 * percentage of the expected pods, rounded up) give the healthy pods needed. A pod that is not running, or is being
 * deleted already, is evicted whatever the budgets say.
 */
final class Evictions {

    private final KubeStore store;
    private final Writes writes;

    Evictions(KubeStore store, Writes writes) {
        this.store = store;
        this.writes = writes;
    }

    void evict(String namespace, String pod, ObjectNode eviction, Writes.Options o) {
        String kind = eviction.path("kind").asText("");
        if (!kind.isEmpty() && !kind.equals("Eviction")) {
            throw new ApiError(400, "BadRequest", "the body of pods/eviction must be an Eviction, not " + kind);
        }
        String name = eviction.path("metadata").path("name").asText("");
        if (!name.isEmpty() && !name.equals(pod)) {
            throw new ApiError(400, "BadRequest", "name in URL does not match name in Eviction object");
        }
        ApiResource pods = store.resource("", "v1", "pods");
        JsonNode target = store.get(pods, namespace, pod).object();
        if (!terminating(target) && healthy(target)) {
            check(namespace, target);
        }
        JsonNode options = eviction.get("deleteOptions");
        writes.delete(pods, namespace, pod, options == null || options.isNull() ? null : options, o);
    }

    private void check(String namespace, JsonNode target) {
        ApiResource budgets = store.resource("policy", "v1", "poddisruptionbudgets");
        Map<String, String> labels = labels(target);
        List<ObjectNode> matching = new ArrayList<>();
        for (ObjectNode pdb : store.objects(budgets, namespace)) {
            if (selects(pdb.path("spec").path("selector"), labels)) {
                matching.add(pdb);
            }
        }
        if (matching.size() > 1) {
            throw new ApiError(
                    500,
                    "InternalError",
                    "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.");
        }
        if (matching.isEmpty()) {
            return;
        }
        ObjectNode pdb = matching.get(0);
        JsonNode selector = pdb.path("spec").path("selector");
        int expected = 0;
        int healthy = 0;
        for (ObjectNode p : store.objects(store.resource("", "v1", "pods"), namespace)) {
            if (!terminating(p) && selects(selector, labels(p))) {
                expected++;
                if (healthy(p)) {
                    healthy++;
                }
            }
        }
        int needed = needed(pdb.path("spec"), expected);
        if (healthy - 1 < needed) {
            throw new ApiError(
                    429,
                    "TooManyRequests",
                    "Cannot evict pod as it would violate the pod's disruption budget. The disruption budget "
                            + pdb.path("metadata").path("name").asText() + " needs " + needed
                            + " healthy pods and has " + healthy + " currently");
        }
    }

    /** Healthy pods the budget keeps: {@code minAvailable}, or the expected pods less {@code maxUnavailable}. */
    static int needed(JsonNode spec, int expected) {
        if (spec.has("minAvailable")) {
            return resolve(spec.get("minAvailable"), expected);
        }
        if (spec.has("maxUnavailable")) {
            return Math.max(0, expected - resolve(spec.get("maxUnavailable"), expected));
        }
        return 0;
    }

    /** An IntOrString: a number, or a percentage of {@code expected} rounded up. */
    static int resolve(JsonNode v, int expected) {
        if (v.isInt()) {
            return v.asInt();
        }
        String s = v.asText("");
        if (s.endsWith("%")) {
            try {
                int pct = Integer.parseInt(s.substring(0, s.length() - 1));
                return (int) Math.ceil(expected * pct / 100.0);
            } catch (NumberFormatException e) {
                throw new ApiError(400, "BadRequest", "invalid percentage in the disruption budget: " + s);
            }
        }
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            throw new ApiError(400, "BadRequest", "invalid value in the disruption budget: " + s);
        }
    }

    private static boolean terminating(JsonNode pod) {
        return pod.path("metadata").has("deletionTimestamp");
    }

    private static boolean healthy(JsonNode pod) {
        if (!"Running".equals(pod.path("status").path("phase").asText())) {
            return false;
        }
        JsonNode conditions = pod.path("status").path("conditions");
        if (!conditions.isArray() || conditions.isEmpty()) {
            return true;
        }
        for (JsonNode c : conditions) {
            if ("Ready".equals(c.path("type").asText())) {
                return "True".equals(c.path("status").asText());
            }
        }
        return true;
    }

    private static Map<String, String> labels(JsonNode obj) {
        Map<String, String> out = new java.util.HashMap<>();
        Iterator<Map.Entry<String, JsonNode>> it =
                obj.path("metadata").path("labels").fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            out.put(e.getKey(), e.getValue().asText());
        }
        return out;
    }

    /** A LabelSelector: every matchLabels entry and every matchExpressions requirement holds; an empty one selects all. */
    static boolean selects(JsonNode selector, Map<String, String> labels) {
        if (selector.isMissingNode() || selector.isNull()) {
            return false; // a budget without a selector selects nothing
        }
        Iterator<Map.Entry<String, JsonNode>> it = selector.path("matchLabels").fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().asText().equals(labels.get(e.getKey()))) {
                return false;
            }
        }
        for (JsonNode r : selector.path("matchExpressions")) {
            String value = labels.get(r.path("key").asText());
            List<String> values = new ArrayList<>();
            r.path("values").forEach(v -> values.add(v.asText()));
            boolean holds = switch (r.path("operator").asText()) {
                case "In" -> value != null && values.contains(value);
                case "NotIn" -> value == null || !values.contains(value);
                case "Exists" -> value != null;
                case "DoesNotExist" -> value == null;
                default -> throw new ApiError(400, "BadRequest", "invalid label selector operator in the budget");
            };
            if (!holds) {
                return false;
            }
        }
        return true;
    }
}
