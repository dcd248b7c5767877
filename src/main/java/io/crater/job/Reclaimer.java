package io.crater.job;

import io.crater.audit.AuditService;
import io.crater.cluster.ClusterCache;
import io.crater.notify.NotificationService;
import io.crater.platform.Sql;
import io.crater.platform.Unis;
import io.crater.policy.NodeCapacity;
import io.crater.policy.QuotaLine;
import io.crater.policy.Reclaim;
import io.crater.policy.Resources;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs {@link Reclaim} inside an admission round: for the first waiting job that fits its quota but finds no
 * room, the backfill jobs (and, when it is within its account's guarantee, the borrowing jobs) to take back are moved to {@code Stopping} with the reason
 * {@code Reclaimed} naming the claimant, their owners are notified, and the round deletes their Volcano Jobs
 * after its commit (the pods get their termination grace period: SIGTERM, then the kill).
 */
@ApplicationScoped
public class Reclaimer {

    @Inject
    ClusterCache cache;

    @Inject
    JobsConfig config;

    @Inject
    io.crater.account.QuotaService quotas;

    @Inject
    AuditService audit;

    @Inject
    NotificationService notifications;

    /** A waiting job that fits its quota but found no room. */
    record Claim(JobRow job, JobSpecs.Checked checked) {}

    /** Chooses and marks the victims for the first claim that can be served; their public ids. */
    Uni<List<String>> reclaim(
            List<Claim> claims, List<NodeCapacity> nodes, Map<Long, Map<String, QuotaLine>> accounts) {
        if (claims.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        // Only backfill jobs, and borrowing jobs for a claimant within its guarantee, are ever taken back: read only
        // those (a round with waiting jobs runs this each time).
        boolean entitled = claims.stream()
                .anyMatch(c -> Reclaim.withinGuarantee(
                        new Reclaim.Claim(
                                c.job().publicId(),
                                c.job().accountId(),
                                c.checked().quotaRequest(),
                                c.checked().pods()),
                        accounts.get(c.job().accountId())));
        String takeable = "j.state IN ('Pending', 'Running') AND NOT j.stop_requested AND "
                + (entitled ? "(j.backfill OR j.borrowing)" : "j.backfill");
        return Sql.rows(
                        "SELECT j.id, j.public_id, j.account_id, j.user_id, j.borrowing, j.started_at, a.slug, j.state, j.backfill FROM jobs j"
                                + " JOIN accounts a ON a.id = j.account_id WHERE " + takeable)
                .flatMap(rows -> rows.isEmpty()
                        ? Uni.createFrom().<Found>nullItem()
                        : Sql.rows(
                                        "SELECT r.job_id, r.resource, r.milli FROM job_requests r JOIN jobs j ON j.id = r.job_id"
                                                + " WHERE " + takeable)
                                .flatMap(requests -> {
                                    Map<Long, Map<String, Long>> quota = new HashMap<>();
                                    requests.forEach(q -> quota.computeIfAbsent(Sql.longOf(q[0]), k -> new HashMap<>())
                                            .put((String) q[1], Sql.longOf(q[2])));
                                    List<Reclaim.Running> running = new ArrayList<>();
                                    Map<String, Object[]> byId = new HashMap<>();
                                    for (Object[] r : rows) {
                                        String publicId = (String) r[1];
                                        byId.put(publicId, r);
                                        running.add(new Reclaim.Running(
                                                publicId,
                                                Sql.longOf(r[2]),
                                                new Resources(quota.getOrDefault(Sql.longOf(r[0]), Map.of())),
                                                cache.boundRequests(publicId),
                                                (Boolean) r[4],
                                                Sql.instant(r[5]),
                                                (Boolean) r[8]));
                                    }
                                    return releasing()
                                            .flatMap(freed -> withQuotas(running, accounts)
                                                    .map(all -> plan(claims, minus(nodes, freed), all, running, byId)));
                                }))
                .flatMap(found -> found == null
                        ? Uni.createFrom().item(List.<String>of())
                        : mark(found.plan(), found.claim(), found.rows()));
    }

    /**
     * What jobs being stopped (stop asked for, pods not gone yet) still hold, per node: earlier reclaims free it
     * soon, so a later round must not pick more victims for the same claim.
     */
    private Uni<Map<String, Resources>> releasing() {
        return Sql.rows(
                        "SELECT public_id FROM jobs WHERE stop_requested AND state IN ('Admitted', 'Pending', 'Running', 'Stopping')")
                .map(rows -> {
                    Map<String, Resources> out = new HashMap<>();
                    rows.forEach(r ->
                            cache.boundRequests((String) r[0]).forEach((n, res) -> out.merge(n, res, Resources::plus)));
                    return out;
                });
    }

    private static List<NodeCapacity> minus(List<NodeCapacity> nodes, Map<String, Resources> freed) {
        return nodes.stream()
                .map(n -> freed.containsKey(n.name()) ? n.withUsed(n.used().minus(freed.get(n.name()))) : n)
                .toList();
    }

    /** A plan and the claim it serves, with the rows of the running jobs. */
    private record Found(Reclaim.Plan plan, Claim claim, Map<String, Object[]> rows) {}

    /** The quota lines of every account with a borrowing job, added to those the round loaded. */
    private Uni<Map<Long, Map<String, QuotaLine>>> withQuotas(
            List<Reclaim.Running> running, Map<Long, Map<String, QuotaLine>> loaded) {
        Map<Long, Map<String, QuotaLine>> all = new HashMap<>(loaded);
        List<Long> load = new ArrayList<>();
        for (Reclaim.Running r : running) {
            if (r.borrowing() && !all.containsKey(r.account())) {
                all.put(r.account(), Map.of());
                load.add(r.account());
            }
        }
        return Unis.sequentially(load, a -> quotas.snapshot(a).invoke(l -> all.put(a, l)))
                .replaceWith(all);
    }

    private Found plan(
            List<Claim> claims,
            List<NodeCapacity> nodes,
            Map<Long, Map<String, QuotaLine>> accounts,
            List<Reclaim.Running> running,
            Map<String, Object[]> rowsById) {
        Instant now = Instant.now();
        // A plan depends on the claim's account, quota and pods only: one that failed fails for its twins too.
        java.util.Set<List<Object>> failed = new java.util.HashSet<>();
        for (Claim c : claims) {
            if (!failed.add(List.of(
                    c.job().accountId(), c.checked().quotaRequest(), c.checked().pods()))) {
                continue;
            }
            Reclaim.Plan plan = Reclaim.plan(
                    nodes,
                    accounts,
                    running,
                    new Reclaim.Claim(
                            c.job().publicId(),
                            c.job().accountId(),
                            c.checked().quotaRequest(),
                            c.checked().pods()),
                    now,
                    config.reclaimMinRunTime());
            if (plan.found()) {
                return new Found(plan, c, rowsById);
            }
        }
        return null;
    }

    private Uni<List<String>> mark(Reclaim.Plan plan, Claim claim, Map<String, Object[]> byId) {
        return Sql.rows(
                        "SELECT slug, name FROM accounts WHERE id = ?1",
                        claim.job().accountId())
                .flatMap(a -> mark(plan, claim, (String) a.get(0)[0], byId));
    }

    private Uni<List<String>> mark(Reclaim.Plan plan, Claim claim, String slug, Map<String, Object[]> byId) {
        Uni<Void> chain = Uni.createFrom().voidItem();
        List<String> ids = new ArrayList<>();
        for (Reclaim.Running v : plan.victims()) {
            String message = "reclaimed for job " + claim.job().publicId() + " of account '" + slug + "'"
                    + (v.backfill()
                            ? ": this backfill job ran on idle capacity"
                            : ", which is within its guarantee; this job was borrowing");
            Object[] r = byId.get(v.job());
            long id = Sql.longOf(r[0]);
            ids.add(v.job());
            chain = chain.flatMap(x -> Sql.update("UPDATE jobs SET stop_requested = TRUE WHERE id = ?1", id))
                    .flatMap(x -> JobStates.move(id, (String) r[7], "Stopping", "Reclaimed", message))
                    .flatMap(x -> notifications.notify(
                            Sql.longOf(r[3]),
                            "job.reclaimed",
                            "Your job " + v.job() + " is being stopped: " + message,
                            "/jobs/" + v.job()))
                    .flatMap(x -> audit.record(
                            io.crater.audit.AuditService.Actor.system(),
                            "job.reclaim",
                            "job",
                            v.job(),
                            null,
                            Map.of("claimant", claim.job().publicId(), "account", slug)));
        }
        return chain.replaceWith(ids);
    }
}
