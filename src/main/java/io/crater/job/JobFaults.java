package io.crater.job;

import io.crater.platform.Json;
import io.crater.platform.Sql;
import io.crater.policy.TargetNodes;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;

/**
 * The card faults jobs met (docs/nodes.md, quarantine): the GPU health watch tells a job that a card it held reported
 * an error. A failed job then names the card and the code in its failure reason ({@code GpuFault}: "GPU 3 on node
 * a100-4 reported XID 79"), whether it failed before or after the fault was read; a resubmission avoids the node.
 */
@ApplicationScoped
public class JobFaults {

    /** The reason code of a job failure caused by a card's error. */
    public static final String GPU_FAULT = "GpuFault";

    /** What a job's card reported: where, which card, and the sentence its owner reads. */
    public record Fault(String node, int gpu, String message, Map<String, Object> args) {}

    /**
     * Records the fault on the job, in the caller's transaction. A job that failed already has it as its failure
     * reason, its exit as it was after it; one that fails later gets it when it does ({@link JobStates#move}).
     */
    public Uni<Void> attach(String publicId, Fault fault) {
        String json = Json.write(
                Map.of("node", fault.node(), "gpu", fault.gpu(), "message", fault.message(), "args", fault.args()));
        return Sql.update(
                        "UPDATE jobs SET gpu_fault = CAST(CAST(?2 AS text) AS jsonb),"
                                + " state_reason = CASE WHEN state = 'Failed' THEN ?3 ELSE state_reason END,"
                                + " state_message = CASE WHEN state = 'Failed' THEN ?4"
                                + " || CASE WHEN state_message = '' OR state_reason = ?3 THEN '' ELSE '; ' || state_message"
                                + " END ELSE state_message END, updated_at = now()"
                                + " WHERE public_id = ?1 AND gpu_fault IS NULL",
                        publicId,
                        json,
                        GPU_FAULT,
                        fault.message())
                .replaceWithVoid();
    }

    /** The spec of a job to resubmit, avoiding the node where its card failed (an allow list is left as chosen). */
    static JobViews.SubmitJob avoidingFault(JobViews.SubmitJob spec, String faultJson) {
        if (faultJson == null || faultJson.isBlank()) {
            return spec;
        }
        String node = String.valueOf(Json.read(faultJson, Map.class).get("node"));
        List<String> use = spec.nodes() == null ? null : spec.nodes().use();
        List<String> avoid = spec.nodes() == null ? null : spec.nodes().avoid();
        TargetNodes next = TargetNodes.of(use, avoid).avoiding(node);
        Map<String, Object> nodes = next.allow().isEmpty()
                ? Map.of("avoid", next.deny().stream().sorted().toList())
                : Map.of("use", next.allow().stream().sorted().toList());
        return Json.convert(
                ((com.fasterxml.jackson.databind.node.ObjectNode) Json.tree(spec)).set("nodes", Json.tree(nodes)),
                JobViews.SubmitJob.class);
    }
}
