package io.crater.gpus;

import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * What {@code GET /api/v1/cluster/free-accelerators} shows anyone signed in: free cards per model and node, and what
 * the caller's accounts may still take of each model. Counts only: no job, owner or account of anyone else.
 */
public final class FreeAcceleratorViews {

    private FreeAcceleratorViews() {}

    /** The body: one entry per accelerator model of the catalogue (retired ones left out), one per caller's account. */
    @Schema(name = "FreeAccelerators")
    public record FreeAccelerators(List<FreeModel> models, List<AccountRoom> accounts) {}

    /**
     * A model over the cluster, in cards: {@code total} on its nodes, {@code free} on the nodes that take pods once the
     * admitted jobs not yet bound have their room, {@code mostOnOneNode} the most free on one node (the largest
     * single-node job that fits now); {@code memoryMiB} of one card (the catalogue's; null when it does not say);
     * {@code restricted} when a submission needs an approved access request. Nodes with the most free cards first.
     */
    @Schema(name = "FreeModel")
    public record FreeModel(
            String model,
            String displayName,
            String vendor,
            Long memoryMiB,
            boolean restricted,
            long total,
            long free,
            long mostOnOneNode,
            List<FreeNode> nodes) {}

    /**
     * A node of the model: its cards, the free ones (0 on a node that is not ready or is cordoned, {@code schedulable}
     * false), and one card's memory in MiB: the catalogue's, else the node's label ({@code nvidia.com/gpu.memory}).
     */
    @Schema(name = "FreeNode")
    public record FreeNode(String name, long total, long free, Long memoryMiB, boolean schedulable) {}

    /** One of the caller's accounts and what it may still take of each model. */
    @Schema(name = "AccountRoom")
    public record AccountRoom(String account, List<ModelRoom> models) {}

    /**
     * One model in an account, in cards: the account's {@code used}, effective {@code guaranteed} and {@code max}
     * (grants in force included), {@code withinGuarantee} still to take before jobs borrow (borrowed cards can be
     * reclaimed), {@code memberLeft} what the caller's own member limit leaves (null: no limit), and {@code mayStillUse}
     * the least of the account's headroom and the member's.
     */
    @Schema(name = "ModelRoom")
    public record ModelRoom(
            String model,
            long used,
            long guaranteed,
            long max,
            long withinGuarantee,
            Long memberLeft,
            long mayStillUse) {}
}
