package io.crater.gpus;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/** What {@code GET /api/v1/cluster/gpus} shows: per model a summary, per node its cards with their holders. */
public final class GpuViews {

    private GpuViews() {}

    /**
     * The body. {@code unavailable} is null when the cards were read, else the reason they could not be (and both
     * lists are empty): a source that fails never reads as idle cards.
     */
    public record Overview(String unavailable, List<ModelSummary> models, List<NodeGpus> nodes) {

        static Overview unavailable(String reason) {
            return new Overview(reason, List.of(), List.of());
        }
    }

    /**
     * One accelerator model over the whole cluster (whatever the filter): cards, those a pod holds, the free ones on
     * nodes that take pods, the mean utilisation of the held cards that have a reading (null when none has), and
     * the nodes with free cards, most first.
     */
    public record ModelSummary(
            String model,
            String displayName,
            int cards,
            int allocated,
            int free,
            Double meanUtilisation,
            List<NodeFree> nodes) {}

    /** A node's free cards of a model. */
    public record NodeFree(String node, int free) {}

    /**
     * A node with its cards. {@code model} is the catalogue key from the node's labels ({@code uncatalogued} when no
     * entry matches, the exporter's model name for a node Crater does not know); {@code free} counts the cards no pod
     * holds, 0 on a node that takes no pods (not ready or cordoned).
     */
    public record NodeGpus(
            String name, String model, String displayName, boolean schedulable, int free, List<Card> cards) {}

    /** A card with its readings (null where the exporter has none) and its holder (null when free). */
    public record Card(
            int index,
            String uuid,
            String modelName,
            Double utilisation,
            Long memoryUsedMiB,
            Long memoryTotalMiB,
            Double powerWatts,
            Double temperatureC,
            Holder holder) {}

    /**
     * Who holds a card. A Crater job the caller may see (their own, one of an account they administer, or any for a
     * platform admin) gives its public id, name, account slug and owner; any other job only
     * {@code heldByOtherAccount}; a pod that is no Crater job gives its namespace and pod to platform admins.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Holder(
            String job,
            String jobName,
            String account,
            String owner,
            String namespace,
            String pod,
            boolean heldByOtherAccount) {

        static Holder hidden() {
            return new Holder(null, null, null, null, null, null, true);
        }
    }
}
