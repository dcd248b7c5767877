package io.crater.job;

import io.crater.cluster.NodeJobs;
import io.crater.notify.NotificationService;
import io.crater.platform.Sql;
import io.crater.platform.Unis;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The jobs feature's side of {@link NodeJobs}: stopping the jobs of a drained node with {@code NodeDrained}. */
@ApplicationScoped
class NodeJobStops implements NodeJobs {

    static final String REASON = HistoryCode.NodeDrained.name();
    private static final Set<String> LIVE = Set.of("Admitted", "Pending", "Running");

    @Inject
    JobStops stops;

    @Inject
    NotificationService notifications;

    @Override
    public Uni<List<String>> markDrained(List<String> publicIds, String node, String by, String reason) {
        if (publicIds.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        String message = "node " + node + " was drained by " + by + ": " + reason;
        Map<String, String> args = Map.of("node", node, "by", by, "reason", reason);
        List<String> moved = new ArrayList<>();
        return Panache.withTransaction(() -> Unis.sequentially(
                        publicIds,
                        publicId -> Sql.rows(
                                        "SELECT id, user_id, state, name FROM jobs WHERE public_id = ?1 FOR UPDATE",
                                        publicId)
                                .flatMap(rows -> {
                                    if (rows.isEmpty() || !LIVE.contains((String) rows.get(0)[2])) {
                                        return Uni.createFrom().voidItem();
                                    }
                                    long id = Sql.longOf(rows.get(0)[0]);
                                    long owner = Sql.longOf(rows.get(0)[1]);
                                    String state = (String) rows.get(0)[2];
                                    String name = (String) rows.get(0)[3];
                                    moved.add(publicId);
                                    return Sql.update("UPDATE jobs SET stop_requested = TRUE WHERE id = ?1", id)
                                            .flatMap(x -> JobStates.move(id, state, "Stopping", REASON, message, args))
                                            .flatMap(x -> notifications.notify(
                                                    owner,
                                                    "job.node-drained",
                                                    "Your job " + name + " (" + publicId + ") is being stopped: "
                                                            + message,
                                                    "/jobs/" + publicId,
                                                    Map.of(
                                                            "job", publicId, "name", name, "node", node, "reason",
                                                            reason)));
                                })))
                .map(v -> List.copyOf(moved));
    }

    @Override
    public void release(List<String> publicIds) {
        publicIds.forEach(stops::release);
    }
}
