package io.crater.sim.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * {@code SelfSubjectAccessReview} ({@code POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews}): the simulated
 * cluster allows its one client everything, except what a rule added with {@link #deny} names, so a test can play an
 * installation whose RBAC lacks something. The answer is what a real API server returns ({@code status.allowed},
 * {@code denied}, {@code reason}); the rules only shape the answers to access reviews, they are not enforced on
 * other requests.
 */
public final class AccessReviews {

    /**
     * A denied permission: verb, API group ({@code ""} core), resource ({@code pods/exec} for a subresource) and
     * namespace (null: any namespace and cluster scope); {@code *} matches anything in any field.
     */
    public record Rule(String verb, String group, String resource, String namespace) {
        boolean matches(String verb, String group, String resource, String namespace) {
            return any(this.verb, verb)
                    && any(this.group, group)
                    && any(this.resource, resource)
                    && (this.namespace == null || any(this.namespace, namespace));
        }

        private static boolean any(String rule, String value) {
            return "*".equals(rule) || rule.equals(value == null ? "" : value);
        }
    }

    private static final List<String> PATH = List.of("apis", "authorization.k8s.io", "v1", "selfsubjectaccessreviews");

    private final ObjectMapper json = new ObjectMapper();
    private final List<Rule> denied = new CopyOnWriteArrayList<>();

    /** From now on, reviews of what the rule names are answered denied. */
    public void deny(Rule rule) {
        denied.add(rule);
    }

    /** Everything is allowed again. */
    public void allowAll() {
        denied.clear();
    }

    boolean serves(List<String> seg) {
        return seg.equals(PATH);
    }

    void serve(HttpServerRequest req, Buffer body) {
        if (req.method() != HttpMethod.POST) {
            throw new ApiError(405, "MethodNotAllowed", "selfsubjectaccessreviews can only be created");
        }
        JsonNode review;
        try {
            review = body == null || body.length() == 0 ? null : json.readTree(body.getBytes());
        } catch (IOException e) {
            throw new ApiError(400, "BadRequest", "the request body is not JSON: " + e.getMessage());
        }
        if (review == null || !review.path("spec").isObject()) {
            throw new ApiError(400, "BadRequest", "a SelfSubjectAccessReview needs a spec");
        }
        JsonNode attributes = review.path("spec").path("resourceAttributes");
        ObjectNode answer = ((ObjectNode) review.deepCopy()).put("kind", "SelfSubjectAccessReview");
        answer.put("apiVersion", "authorization.k8s.io/v1");
        ObjectNode status = answer.putObject("status");
        boolean deny = attributes.isObject()
                && denied.stream()
                        .anyMatch(r -> r.matches(
                                attributes.path("verb").asText(""),
                                attributes.path("group").asText(""),
                                resource(attributes),
                                attributes.path("namespace").asText("")));
        status.put("allowed", !deny);
        if (deny) {
            status.put("denied", true).put("reason", "denied by the simulated cluster's access rules");
        }
        InProcessApiServer.ok(req, 201, answer.toString());
    }

    private static String resource(JsonNode attributes) {
        String sub = attributes.path("subresource").asText("");
        return attributes.path("resource").asText("") + (sub.isEmpty() ? "" : "/" + sub);
    }
}
