package io.crater.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.crater.job.JobResource;
import io.crater.job.JobViews;
import io.crater.platform.ApiException;
import io.smallrye.mutiny.Uni;
import java.util.List;

/** Why a job ended as it did, gathered from its detail (archived at its end) and the last lines of its log. */
final class McpFailures {

    /** How many state changes the explanation shows, the latest. */
    static final int HISTORY = 5;

    private McpFailures() {}

    static Uni<JsonNode> explain(JobResource jobs, ObjectMapper json, String id, int lines) {
        return jobs.get(id).flatMap(detail -> {
            if (!detail.permissions().readLogs()) {
                return Uni.createFrom().item(of(json, detail, null, "the caller may not read this job's log"));
            }
            return jobs.logs(id, null, lines)
                    .map(text -> of(json, detail, McpTools.lines(text), null))
                    .onFailure(ApiException.class)
                    .recoverWithItem(e -> of(json, detail, null, e.getMessage()));
        });
    }

    /** The explanation: state and reason, container ends, warnings, the last state changes and the log's end. */
    static JsonNode of(ObjectMapper json, JobViews.JobDetail d, List<String> logTail, String logUnavailable) {
        ObjectNode out = json.createObjectNode()
                .put("job", d.job().id())
                .put("state", d.job().state())
                .put("stateReason", d.stateReason())
                .put("stateMessage", d.stateMessage());
        out.set("exits", json.valueToTree(d.exits() == null ? List.of() : d.exits()));
        ArrayNode containers = out.putArray("containers");
        for (JobViews.JobPod pod : d.pods() == null ? List.<JobViews.JobPod>of() : d.pods()) {
            for (JobViews.Container c : pod.containers() == null ? List.<JobViews.Container>of() : pod.containers()) {
                if ((c.exitCode() != null && c.exitCode() != 0) || c.reason() != null || c.restarts() > 0) {
                    ObjectNode n = json.valueToTree(c);
                    n.put("pod", pod.name());
                    containers.add(n);
                }
            }
        }
        ArrayNode warnings = out.putArray("warnings");
        for (JobViews.JobEvent e : d.events() == null ? List.<JobViews.JobEvent>of() : d.events()) {
            if (!"Normal".equals(e.type())) {
                warnings.add(json.valueToTree(e));
            }
        }
        List<JobViews.Transition> history = d.history() == null ? List.of() : d.history();
        out.set("history", json.valueToTree(history.subList(Math.max(0, history.size() - HISTORY), history.size())));
        ArrayNode tail = out.putArray("logTail");
        if (logTail != null) {
            logTail.forEach(tail::add);
        }
        out.put("logUnavailable", logUnavailable);
        return out;
    }
}
