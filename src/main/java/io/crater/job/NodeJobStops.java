package io.crater.job;

import io.crater.assets.AssetMounts;
import io.crater.cluster.NodeJobs;
import io.crater.notify.NotificationService;
import io.crater.platform.Json;
import io.crater.platform.Sql;
import io.crater.platform.Unis;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The jobs feature's side of {@link NodeJobs}: stopping the jobs of a drained node with {@code NodeDrained}, and,
 * when the platform admin asks, requeueing a copy of each in its place in line ({@code Requeued}). A copy, not the job
 * itself: the job's Kubernetes objects are named from its id and are being deleted, so the copy's new id starts clean.
 */
@ApplicationScoped
class NodeJobStops implements NodeJobs {

    static final String REASON = HistoryCode.NodeDrained.name();
    private static final Set<String> LIVE = Set.of("Admitted", "Pending", "Running");

    @Inject
    JobStops stops;

    @Inject
    NotificationService notifications;

    @Inject
    AssetMounts assetMounts;

    /** A job locked for the drain. */
    record Drained(long id, long owner, String state, String name) {
        static Drained of(Object[] r) {
            return new Drained(Sql.longOf(r[0]), Sql.longOf(r[1]), (String) r[2], (String) r[3]);
        }
    }

    @Override
    public Uni<List<String>> markDrained(List<String> publicIds, String node, String by, String reason) {
        return drain(publicIds, node, by, reason, false).map(m -> List.copyOf(m.keySet()));
    }

    @Override
    public Uni<Map<String, String>> markDrainedAndRequeue(
            List<String> publicIds, String node, String by, String reason) {
        return drain(publicIds, node, by, reason, true);
    }

    /** The moved jobs' ids, each to its copy's id when requeued (to null when not). */
    private Uni<Map<String, String>> drain(
            List<String> publicIds, String node, String by, String reason, boolean requeue) {
        Map<String, String> moved = new LinkedHashMap<>();
        if (publicIds.isEmpty()) {
            return Uni.createFrom().item(moved);
        }
        String message = "node " + node + " was drained by " + by + ": " + reason;
        Map<String, String> args = Map.of("node", node, "by", by, "reason", reason);
        return Panache.withTransaction(() -> Unis.sequentially(
                        publicIds,
                        publicId -> Sql.row(
                                        "SELECT id, user_id, state, name FROM jobs WHERE public_id = ?1 FOR UPDATE",
                                        publicId)
                                .map(r -> r.map(Drained::of).filter(d -> LIVE.contains(d.state())))
                                .flatMap(found -> found.isEmpty()
                                        ? Uni.createFrom().voidItem()
                                        : stop(publicId, found.get(), message, args)
                                                .flatMap(x -> requeue
                                                        ? copy(found.get().id(), publicId, node)
                                                        : Uni.createFrom().nullItem())
                                                .flatMap(copy -> {
                                                    moved.put(publicId, copy);
                                                    return tell(found.get(), publicId, node, reason, message, copy);
                                                }))))
                .map(v -> moved);
    }

    private Uni<Boolean> stop(String publicId, Drained d, String message, Map<String, String> args) {
        return Sql.update("UPDATE jobs SET stop_requested = TRUE WHERE id = ?1", d.id())
                .flatMap(x -> JobStates.move(d.id(), d.state(), "Stopping", REASON, message, args));
    }

    /**
     * A copy of the job, queued in its place: the same spec, account, owner, priority and submission time (the line's
     * order), its requests and mounts, linked to it as its source job; admission is woken on every replica.
     */
    private Uni<String> copy(long jobId, String fromId, String node) {
        String copyId = JobNames.newPublicId();
        String args = Json.write(Map.of("from", fromId, "node", node));
        return Sql.insertReturningId(
                        "WITH j AS (INSERT INTO jobs (public_id, account_id, user_id, name, kind, interactive, state,"
                                + " spec, priority, template_id, template_version, source_job_id, time_limit_s,"
                                + " backfill, created_at) SELECT ?2, account_id, user_id, name, kind, interactive,"
                                + " 'Queued', spec, priority, template_id, template_version, id, time_limit_s, backfill,"
                                + " created_at FROM jobs WHERE id = ?1 RETURNING id)"
                                + ", r AS (INSERT INTO job_requests (job_id, resource, milli) SELECT j.id, q.resource,"
                                + " q.milli FROM j, job_requests q WHERE q.job_id = ?1)"
                                + ", t AS (INSERT INTO job_transitions (job_id, from_state, to_state, reason, message,"
                                + " args) SELECT j.id, '', 'Queued', '" + HistoryCode.Requeued.name() + "', ?3,"
                                + " CAST(CAST(?4 AS text) AS jsonb) FROM j)"
                                + ", n AS (SELECT pg_notify('" + JobStates.ADMISSION_CHANNEL + "', ?2))"
                                + " SELECT j.id FROM j, n",
                        jobId,
                        copyId,
                        "requeued in place of " + fromId + ", drained off node " + node,
                        args)
                .flatMap(newId -> assetMounts.copy(jobId, newId))
                .replaceWith(copyId);
    }

    private Uni<Void> tell(Drained d, String publicId, String node, String reason, String message, String copy) {
        Map<String, Object> args =
                new LinkedHashMap<>(Map.of("job", publicId, "name", d.name(), "node", node, "reason", reason));
        if (copy != null) {
            args.put("requeued", copy);
        }
        return notifications.notify(
                d.owner(),
                "job.node-drained",
                "Your job " + d.name() + " (" + publicId + ") is being stopped: " + message
                        + (copy == null ? "" : "; it waits again as " + copy + " in its place in line"),
                "/jobs/" + (copy == null ? publicId : copy),
                args);
    }

    @Override
    public void release(List<String> publicIds) {
        publicIds.forEach(stops::release);
    }
}
