package io.crater.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.crater.cluster.ClusterResource;
import io.crater.identity.Caller;
import io.crater.job.JobResource;
import io.crater.job.JobViews;
import io.crater.platform.ApiException;
import io.crater.platform.Problem;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.Response;
import java.util.List;

/**
 * What each tool does. Every tool calls the same endpoint method the HTTP API runs for it, so it resolves the same
 * caller from the request's token and applies the same checks: no tool can do what the caller could not do
 * through the API. The results are the API's bodies as JSON.
 */
@ApplicationScoped
class McpTools {

    @Inject
    JobResource jobs;

    @Inject
    ClusterResource cluster;

    @Inject
    McpAccountTools accounts;

    @Inject
    ObjectMapper json;

    /** Runs a tool whose arguments passed its input schema. */
    Uni<JsonNode> run(McpCatalogue.Tool tool, JsonNode a, Caller caller) {
        if (tool.adminOnly() && !caller.platformAdmin()) {
            throw ApiException.forbidden("NotPlatformAdmin", "only platform admins may use " + tool.name());
        }
        return switch (tool.name()) {
            case "list_jobs" ->
                tree(jobs.list(
                        text(a, "account"),
                        text(a, "state"),
                        text(a, "kind"),
                        null,
                        null,
                        a.path("mine").asBoolean(false),
                        null,
                        null,
                        null,
                        text(a, "cursor"),
                        number(a, "limit")));
            case "list_all_jobs" ->
                tree(jobs.list(
                        text(a, "account"),
                        text(a, "state"),
                        text(a, "kind"),
                        text(a, "model"),
                        text(a, "owner"),
                        false,
                        null,
                        null,
                        null,
                        text(a, "cursor"),
                        number(a, "limit")));
            case "get_job" -> tree(jobs.get(text(a, "id")));
            case "why_is_job_waiting" -> tree(jobs.waitFor(text(a, "id")));
            case "tail_job_log" ->
                tail(text(a, "id"), text(a, "pod"), a.path("lines").asInt(100));
            case "explain_job_failure" ->
                McpFailures.explain(jobs, json, text(a, "id"), a.path("lines").asInt(50));
            case "my_quota_and_usage" -> accounts.quotaAndUsage(text(a, "account"));
            case "free_accelerators" -> accelerators(text(a, "model"));
            case "submit_job" -> submit(a);
            case "stop_job" -> tree(jobs.stop(text(a, "id")));
            case "cluster_nodes" -> tree(cluster.nodes());
            default -> throw new IllegalStateException("no handler for tool " + tool.name());
        };
    }

    private Uni<JsonNode> tail(String id, String pod, int lines) {
        return jobs.logs(id, pod, lines).map(text -> {
            ObjectNode out = json.createObjectNode().put("job", id).put("pod", pod);
            lines(text).forEach(out.putArray("lines")::add);
            return out;
        });
    }

    /** A log's lines without the end of the last one. */
    static List<String> lines(String text) {
        if (text == null || text.isEmpty()) {
            return List.of();
        }
        String body = text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
        return List.of(body.split("\n", -1));
    }

    private Uni<JsonNode> accelerators(String model) {
        return cluster.accelerators().map(items -> {
            ObjectNode out = json.createObjectNode();
            var list = out.putArray("items");
            items.items().stream()
                    .filter(m -> model == null || model.equals(m.model()))
                    .forEach(m -> list.add(json.valueToTree(m)));
            return out;
        });
    }

    private Uni<JsonNode> submit(JsonNode a) {
        JobViews.SubmitJob spec;
        try {
            spec = json.treeToValue(a.get("job"), JobViews.SubmitJob.class);
        } catch (JsonProcessingException e) {
            throw ApiException.badRequest(
                    "InvalidJob",
                    "the job is not a job spec: " + e.getOriginalMessage(),
                    List.of(new Problem.FieldError("job", e.getOriginalMessage())));
        }
        boolean dryRun = a.path("dryRun").asBoolean(true);
        return jobs.submit(spec, dryRun, text(a, "account"), text(a, "idempotencyKey"))
                .map(r -> submitted(r, dryRun));
    }

    private JsonNode submitted(Response r, boolean dryRun) {
        ObjectNode out = json.createObjectNode().put("dryRun", dryRun);
        if (dryRun) {
            out.setAll((ObjectNode) json.valueToTree(r.getEntity()));
        } else {
            out.set("job", json.valueToTree(r.getEntity()));
            out.put("replayed", "true".equals(r.getHeaderString("Idempotent-Replayed")));
        }
        return out;
    }

    private <T> Uni<JsonNode> tree(Uni<T> result) {
        return result.map(v -> (JsonNode) json.valueToTree(v));
    }

    static String text(JsonNode a, String name) {
        JsonNode v = a.get(name);
        return v == null || v.isNull() ? null : v.asText();
    }

    static Integer number(JsonNode a, String name) {
        JsonNode v = a.get(name);
        return v == null || v.isNull() ? null : v.asInt();
    }
}
