package io.crater.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.crater.platform.ApiException;
import io.crater.platform.Problem;
import io.crater.policy.Reason;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;
import jakarta.ws.rs.WebApplicationException;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Tool results: the structured content with the same JSON as text; a failed call is a result with
 * {@code isError}, the problem the HTTP API would answer as structured content, and its detail, code and reasons
 * with their numbers as text. An unexpected failure is logged with an incident id and says only that id.
 */
final class McpResults {

    private static final Logger LOG = Logger.getLogger(McpResults.class);

    private McpResults() {}

    static ObjectNode success(ObjectMapper json, JsonNode structured) {
        ObjectNode r = json.createObjectNode();
        r.putArray("content").addObject().put("type", "text").put("text", structured.toString());
        r.set("structuredContent", structured);
        r.put("isError", false);
        return r;
    }

    static ObjectNode failure(ObjectMapper json, String tool, Throwable e) {
        ObjectNode problem = problem(json, tool, e);
        ObjectNode structured = json.createObjectNode();
        structured.set("problem", problem);
        ObjectNode r = json.createObjectNode();
        r.putArray("content").addObject().put("type", "text").put("text", text(problem));
        r.set("structuredContent", structured);
        r.put("isError", true);
        return r;
    }

    /** The problem of a failed call: status, code, detail, reasons and field errors as the HTTP API gives them. */
    static ObjectNode problem(ObjectMapper json, String tool, Throwable e) {
        ObjectNode p = json.createObjectNode();
        List<Reason> reasons = List.of();
        List<Problem.FieldError> errors = List.of();
        if (e instanceof ApiException a) {
            p.put("status", a.status()).put("code", a.code()).put("detail", a.getMessage());
            reasons = a.reasons();
            errors = a.errors();
        } else if (e instanceof ForbiddenException) {
            p.put("status", 403).put("code", "Forbidden").put("detail", "you may not do this");
        } else if (e instanceof UnauthorizedException) {
            p.put("status", 401)
                    .put("code", "Unauthenticated")
                    .put("detail", "sign in first: no valid access token was presented");
        } else if (e instanceof WebApplicationException w && w.getResponse().getStatus() < 500) {
            int status = w.getResponse().getStatus();
            p.put("status", status).put("code", status == 404 ? "NotFound" : "RequestRefused");
            p.put("detail", w.getMessage());
        } else {
            String incident = UUID.randomUUID().toString();
            LOG.errorf(e, "unexpected error in MCP tool %s (incident %s)", tool, incident);
            p.put("status", 500)
                    .put("code", "InternalError")
                    .put("detail", "something went wrong on Crater's side; incident " + incident);
        }
        p.set("reasons", json.valueToTree(reasons == null ? List.of() : reasons));
        p.set("errors", json.valueToTree(errors == null ? List.of() : errors));
        return p;
    }

    /** The problem as lines: status and code with the detail, then each reason and field error. */
    static String text(JsonNode problem) {
        StringBuilder sb = new StringBuilder();
        sb.append("Error ")
                .append(problem.path("status").asInt())
                .append(' ')
                .append(problem.path("code").asText())
                .append(": ")
                .append(problem.path("detail").asText());
        for (JsonNode r : problem.path("reasons")) {
            sb.append("\n- ")
                    .append(r.path("code").asText())
                    .append(": ")
                    .append(r.path("message").asText());
            if (r.path("numbers").size() > 0) {
                sb.append(" (");
                String sep = "";
                for (Map.Entry<String, JsonNode> n : (Iterable<Map.Entry<String, JsonNode>>)
                        () -> r.path("numbers").fields()) {
                    sb.append(sep)
                            .append(n.getKey())
                            .append('=')
                            .append(n.getValue().asText());
                    sep = ", ";
                }
                sb.append(')');
            }
        }
        for (JsonNode f : problem.path("errors")) {
            sb.append("\n- ")
                    .append(f.path("field").asText())
                    .append(": ")
                    .append(f.path("message").asText());
        }
        return sb.toString();
    }
}
