package io.crater.job;

import io.crater.cluster.ClusterConfig;
import io.crater.platform.Sql;
import io.crater.platform.Threads;
import io.crater.volcano.VolcanoJob;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.VertxContextSupport;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Brings job rows in line with their Volcano Jobs: an informer over Crater's Volcano Jobs, changes coalesced
 * per job and written every 300 ms from a worker thread, {@link #BATCH} jobs per transaction (on a Vert.x context),
 * then the ended jobs of each batch archived together on a thread of their own, so the next flush does not wait for
 * their log reads. After a restart the
 * informer lists everything first, so missed changes are caught up. A job whose Volcano Job disappears is
 * Stopped when a stop was asked for, else Failed with the reason {@code VolcanoJobDeleted}.
 */
@ApplicationScoped
public class JobReconciler {

    private static final Logger LOG = Logger.getLogger(JobReconciler.class);

    /** At most this many jobs are written in one transaction; a flush of more writes several. */
    static final int BATCH = 500;

    /** Volcano's job phase to Crater's state (docs/jobs.md has the table). */
    static final Map<String, String> STATES = Map.ofEntries(
            Map.entry("Pending", "Pending"),
            Map.entry("Restarting", "Pending"),
            Map.entry("Running", "Running"),
            Map.entry("Completing", "Running"),
            Map.entry("Completed", "Succeeded"),
            Map.entry("Aborting", "Stopping"),
            Map.entry("Terminating", "Stopping"),
            Map.entry("Aborted", "Failed"),
            Map.entry("Terminated", "Failed"),
            Map.entry("Failed", "Failed"));

    @Inject
    KubernetesClient client;

    @Inject
    ClusterConfig cluster;

    @Inject
    java.time.Clock clock;

    @Inject
    JobLogs logs;

    @Inject
    JobsConfig config;

    private SharedIndexInformer<VolcanoJob> informer;
    private final Map<String, VolcanoJob> latest = new ConcurrentHashMap<>();
    private final Map<String, Boolean> dirty = new ConcurrentHashMap<>();
    private final ScheduledExecutorService flusher = Threads.scheduler("crater-job-reconciler");
    /** Archives ended jobs in the order they ended, so the next flush does not wait for the last one's archive. */
    private final ScheduledExecutorService archiver = Threads.scheduler("crater-job-archiver");

    void onStart(@Observes @Priority(70) StartupEvent event) {
        informer = client.resources(VolcanoJob.class)
                .inNamespace(cluster.namespace())
                .withLabel(JobNames.MANAGED_BY, "crater")
                .runnableInformer(0);
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(VolcanoJob job) {
                seen(job, false);
            }

            @Override
            public void onUpdate(VolcanoJob old, VolcanoJob job) {
                seen(job, false);
            }

            @Override
            public void onDelete(VolcanoJob job, boolean unknownFinalState) {
                seen(job, true);
            }
        });
        informer.start();
        flusher.scheduleWithFixedDelay(this::flush, 300, 300, TimeUnit.MILLISECONDS);
        flusher.scheduleWithFixedDelay(this::sweep, 5, 60, TimeUnit.SECONDS);
    }

    /**
     * Jobs whose Volcano Job is gone although Crater never saw it go (deleted while Crater was down): rows in
     * Pending, Running or Stopping, admitted more than the repair interval ago, with no Volcano Job in the synced
     * informer. They end as if the deletion had been seen (Admitted rows belong to the repair step, which creates
     * their objects again).
     */
    void sweep() {
        if (!synced()) {
            return;
        }
        try {
            List<String> rows = VertxContextSupport.subscribeAndAwait(() -> Panache.withSession(() -> Sql.strings(
                    "SELECT public_id FROM jobs WHERE state IN ('Pending', 'Running', 'Stopping') AND admitted_at < ?1",
                    clock.instant().minus(config.repairAfter()))));
            for (String id : rows) {
                if (!holds(id) && !latest.containsKey(id)) {
                    // A job that ends notifies crater_admission in the same transaction (JobStates.move).
                    VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(() -> vanished(id)));
                }
            }
            // A stop that deleted the Volcano Job while it was still being created leaves one behind: delete again.
            List<String> stopping = VertxContextSupport.subscribeAndAwait(() -> Panache.withSession(() -> Sql.strings(
                    "SELECT public_id FROM jobs WHERE state = 'Stopping' AND stop_requested AND updated_at < ?1",
                    clock.instant().minus(config.repairAfter()))));
            for (String id : stopping) {
                if (holds(id)) {
                    LOG.infof("job %s: its Volcano Job outlived its stop; deleting it again", id);
                    client.resources(VolcanoJob.class)
                            .inNamespace(cluster.namespace())
                            .withName(JobNames.volcanoName(id))
                            .delete();
                }
            }
            archiveMissed();
        } catch (Throwable e) {
            LOG.warnf("sweeping vanished jobs failed (%s); the next sweep retries", e.getMessage());
        }
    }

    /**
     * Archives the jobs that ended over a minute ago but have no archive while their pods are still there: the
     * server stopped between writing a job's end and archiving it (archives run after the commit, on a thread of
     * their own). A job that never ran has nothing to archive and is left out.
     */
    private void archiveMissed() throws Throwable {
        Instant now = clock.instant();
        List<JobLogs.Finished> missed = VertxContextSupport.subscribeAndAwait(() -> Panache.withSession(() -> Sql.rows(
                        "SELECT id, public_id FROM jobs WHERE state IN ('Succeeded', 'Failed')"
                                + " AND started_at IS NOT NULL AND finished_at BETWEEN ?1 AND ?2"
                                + " AND NOT EXISTS (SELECT 1 FROM job_archives a WHERE a.job_id = jobs.id)",
                        now.minus(config.ttlAfterFinished()),
                        now.minusSeconds(60))
                .map(rows -> rows.stream()
                        .map(JobLogs.Finished::of)
                        .filter(f -> holds(f.publicId()))
                        .toList())));
        if (!missed.isEmpty()) {
            LOG.infof("archiving %d ended jobs whose archive was not written", missed.size());
            archiver.execute(() -> archive(missed));
        }
    }

    /**
     * After a stop deleted a job's Volcano Job (blocking; a worker thread): a job stopped while admitted, before its
     * Volcano Job was made, gets no deletion event, so it ends here, keeping the reason of a stop Crater made. A job
     * whose Volcano Job the informer has seen is left to its deletion event; one the applier is making right now
     * is deleted by the applier's own re-check of the stop.
     */
    void endIfNeverMade(String publicId) {
        if (!synced() || latest.containsKey(publicId) || holds(publicId)) {
            return;
        }
        try {
            VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(() -> neverMade(publicId)));
        } catch (Throwable e) {
            LOG.warnf("ending stopped job %s failed (%s); the sweep ends it", publicId, e.getMessage());
        }
    }

    private io.smallrye.mutiny.Uni<Boolean> neverMade(String publicId) {
        return Sql.rows(
                        "SELECT id, state, stop_requested, state_reason, state_message,"
                                + " (SELECT CAST(t.args AS text) FROM job_transitions t WHERE t.job_id = jobs.id"
                                + " AND t.reason = jobs.state_reason ORDER BY t.id DESC LIMIT 1)"
                                + " FROM jobs WHERE public_id = ?1 FOR UPDATE",
                        publicId)
                .flatMap(rows -> {
                    if (rows.isEmpty() || !"Stopping".equals(rows.get(0)[1]) || !(Boolean) rows.get(0)[2]) {
                        return io.smallrye.mutiny.Uni.createFrom().item(false);
                    }
                    boolean crater = JobStates.CRATER_STOPS.contains((String) rows.get(0)[3]);
                    return JobStates.move(
                                    Sql.longOf(rows.get(0)[0]),
                                    "Stopping",
                                    "Stopped",
                                    crater ? (String) rows.get(0)[3] : "Stopped",
                                    crater ? (String) rows.get(0)[4] : "stopped before its Volcano Job was made",
                                    crater ? stored((String) rows.get(0)[5]) : null)
                            .replaceWith(true);
                });
    }

    private io.smallrye.mutiny.Uni<Boolean> vanished(String publicId) {
        return Sql.rows("SELECT id, state, stop_requested FROM jobs WHERE public_id = ?1 FOR UPDATE", publicId)
                .flatMap(rows -> {
                    long id = Sql.longOf(rows.get(0)[0]);
                    String current = (String) rows.get(0)[1];
                    if (JobRow.terminal(current) || current.equals("Admitted") || current.equals("Queued")) {
                        return io.smallrye.mutiny.Uni.createFrom().item(false);
                    }
                    boolean stopped = (Boolean) rows.get(0)[2];
                    return JobStates.move(
                                    id,
                                    current,
                                    stopped ? "Stopped" : "Failed",
                                    stopped ? "Stopped" : "VolcanoJobVanished",
                                    stopped
                                            ? "stopped on request"
                                            : "the Volcano Job was gone when Crater looked (deleted while Crater was not watching)")
                            .replaceWith(true);
                });
    }

    void onStop(@Observes ShutdownEvent event) {
        flusher.shutdownNow();
        archiver.shutdown();
        try {
            archiver.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (informer != null) {
            informer.close();
        }
    }

    private void seen(VolcanoJob job, boolean deleted) {
        String id = job.getMetadata().getLabels().get(JobNames.JOB_ID);
        if (id != null) {
            latest.put(id, job);
            dirty.put(id, deleted);
        }
    }

    /** Writes every job changed since the last flush, {@link #BATCH} jobs per transaction. */
    private void flush() {
        List<String> ids = List.copyOf(dirty.keySet());
        for (int i = 0; i < ids.size(); i += BATCH) {
            flush(ids.subList(i, Math.min(ids.size(), i + BATCH)));
        }
    }

    /**
     * Writes the changes of a batch of jobs in one transaction, then archives the logs and events of those that
     * finished. A failed transaction loses nothing: its jobs are changed again and the next flush retries them.
     */
    private void flush(List<String> ids) {
        Map<String, Boolean> deletedOf = new LinkedHashMap<>();
        Map<String, VolcanoJob> jobs = new HashMap<>();
        for (String id : ids) {
            Boolean deleted = dirty.remove(id);
            VolcanoJob job = latest.get(id);
            if (deleted != null && job != null) {
                deletedOf.put(id, deleted);
                jobs.put(id, job);
            }
        }
        if (deletedOf.isEmpty()) {
            return;
        }
        List<JobLogs.Finished> finished;
        try {
            finished =
                    VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(() -> update(deletedOf, jobs)));
        } catch (Throwable e) {
            deletedOf.forEach(dirty::putIfAbsent);
            if (deletedOf.size() > 1) {
                // A job the database refuses must not hold back the rest of its batch: each is tried alone.
                LOG.warnf(
                        "reconciling %d jobs together failed (%s); trying each alone", deletedOf.size(), e.toString());
                deletedOf.keySet().forEach(id -> flush(List.of(id)));
            } else {
                LOG.warnf(
                        "reconciling job %s failed (%s); retrying",
                        deletedOf.keySet().iterator().next(), e.toString());
            }
            return;
        }
        deletedOf.forEach((id, deleted) -> {
            if (deleted) {
                latest.remove(id);
            }
        });
        // A job whose Volcano Job is deleted has no pods left to read.
        List<JobLogs.Finished> archived =
                finished.stream().filter(f -> !deletedOf.get(f.publicId())).toList();
        if (!archived.isEmpty()) {
            try {
                archiver.execute(() -> archive(archived));
            } catch (java.util.concurrent.RejectedExecutionException stopping) {
                archive(archived);
            }
        }
    }

    /**
     * Archives the finished jobs of a batch together; after a failure each is tried alone, so one job whose archive the
     * database refuses does not lose the others'. A job whose own archive fails keeps none (logged).
     */
    private void archive(List<JobLogs.Finished> finished) {
        try {
            logs.archive(finished);
        } catch (Throwable e) {
            if (finished.size() > 1) {
                LOG.warnf(
                        "archiving %d finished jobs together failed (%s); trying each alone",
                        finished.size(), e.toString());
                finished.forEach(f -> archive(List.of(f)));
            } else if (!finished.isEmpty()) {
                LOG.warnf(
                        "archiving finished job %s failed (%s)", finished.get(0).publicId(), e.toString());
            }
        }
    }

    /**
     * Writes the states the Volcano Jobs show, for a batch of jobs locked in id order (so no other writer locking
     * several jobs waits on this one the other way round); gives the jobs that just finished.
     */
    private io.smallrye.mutiny.Uni<List<JobLogs.Finished>> update(
            Map<String, Boolean> deletedOf, Map<String, VolcanoJob> jobs) {
        return Sql.rows(
                        "SELECT id, state, stop_requested, state_reason, state_message,"
                                + " CASE WHEN state_reason IN (" + quoted(JobStates.CRATER_STOPS) + ")"
                                + " THEN (SELECT CAST(t.args AS text) FROM job_transitions t WHERE t.job_id = jobs.id"
                                + " AND t.reason = jobs.state_reason ORDER BY t.id DESC LIMIT 1) END, public_id"
                                + " FROM jobs WHERE public_id = ANY(string_to_array(?1, ',')) ORDER BY id FOR UPDATE",
                        Sql.commaList(deletedOf.keySet()))
                .flatMap(rows -> {
                    List<JobStates.Change> changes = new ArrayList<>();
                    Map<Long, String> publicIds = new HashMap<>();
                    for (Object[] r : rows) {
                        Locked row = Locked.of(r);
                        Move m = JobRow.terminal(row.stored().state())
                                ? null
                                : move(row.stored(), jobs.get(row.publicId()), deletedOf.get(row.publicId()));
                        if (m != null) {
                            changes.add(
                                    new JobStates.Change(m.id(), m.from(), m.to(), m.reason(), m.message(), m.args()));
                            publicIds.put(m.id(), row.publicId());
                        }
                    }
                    return JobStates.moveAll(changes)
                            .map(moved -> changes.stream()
                                    .filter(c -> moved.contains(c.jobId()) && JobRow.terminal(c.to()))
                                    .map(c -> new JobLogs.Finished(c.jobId(), publicIds.get(c.jobId())))
                                    .toList());
                });
    }

    /** A locked row of a batch: the job's public id beside what {@link #move} reads. */
    record Locked(String publicId, Stored stored) {
        static Locked of(Object[] r) {
            return new Locked((String) r[6], Stored.of(r));
        }
    }

    private static String quoted(java.util.Collection<String> values) {
        return String.join(
                ", ", values.stream().map(v -> "'" + v + "'").sorted().toList());
    }

    /** A job's row as the reconciler reads it, with the arguments of the transition that set its reason. */
    record Stored(long id, String state, boolean stopRequested, String reason, String message, String argsJson) {
        static Stored of(Object[] r) {
            return new Stored(
                    Sql.longOf(r[0]), (String) r[1], (Boolean) r[2], (String) r[3], (String) r[4], (String) r[5]);
        }
    }

    /** A move of a job's state with its reason, message and arguments. */
    record Move(long id, String from, String to, String reason, String message, java.util.Map<String, Object> args) {}

    /** Where the Volcano Job's state takes the stored job; null when it stays where it is. */
    static Move move(Stored r, VolcanoJob job, boolean deleted) {
        String current = r.state();
        boolean stopRequested = r.stopRequested();
        String phase = job.getStatus() == null || job.getStatus().state == null ? null : job.getStatus().state.phase;
        String next;
        String reason;
        String message;
        java.util.Map<String, Object> args;
        // Crater's own stops keep their reason and message (with the numbers) when the job ends.
        boolean reclaimed = r.reason() != null && JobStates.CRATER_STOPS.contains(r.reason());
        if (deleted) {
            next = stopRequested ? "Stopped" : "Failed";
            reason = reclaimed ? r.reason() : stopRequested ? "Stopped" : "VolcanoJobDeleted";
            message = reclaimed
                    ? r.message()
                    : stopRequested ? "stopped on request" : "the Volcano Job was deleted outside Crater";
            args = reclaimed ? stored(r.argsJson()) : null;
        } else {
            next = phase == null ? current : STATES.getOrDefault(phase, current);
            if (stopRequested && !JobRow.terminal(next)) {
                next = "Stopping";
            } else if (stopRequested && next.equals("Failed")) {
                next = "Stopped";
            }
            reason = job.getStatus() == null || job.getStatus().state == null ? phase : job.getStatus().state.reason;
            message = job.getStatus() == null || job.getStatus().state == null ? null : job.getStatus().state.message;
            args = counts(job.getStatus());
            if (reclaimed && next.equals("Stopped")) {
                reason = r.reason();
                message = r.message();
                args = stored(r.argsJson());
            }
        }
        if (next.equals(current) || (current.equals("Admitted") && next.equals("Admitted"))) {
            return null;
        }
        return new Move(r.id(), current, next, reason, message, args);
    }

    /** The pod counts a Volcano Job's status gives, the arguments of a history entry with Volcano's reason. */
    static java.util.Map<String, Object> counts(io.crater.volcano.VolcanoJobStatus s) {
        if (s == null) {
            return null;
        }
        java.util.Map<String, Object> out = new java.util.LinkedHashMap<>();
        out.put("running", s.running == null ? 0L : (long) s.running);
        out.put("pending", s.pending == null ? 0L : (long) s.pending);
        out.put("succeeded", s.succeeded == null ? 0L : (long) s.succeeded);
        out.put("failed", s.failed == null ? 0L : (long) s.failed);
        if (s.minAvailable != null) {
            out.put("minAvailable", (long) s.minAvailable);
        }
        out.put(
                "total",
                out.entrySet().stream()
                        .filter(e -> !e.getKey().equals("minAvailable"))
                        .mapToLong(e -> (Long) e.getValue())
                        .sum());
        return out;
    }

    /** The arguments stored with the entry that gave the job its current reason. */
    @SuppressWarnings("unchecked")
    private static java.util.Map<String, Object> stored(String json) {
        return json == null ? null : (java.util.Map<String, Object>) io.crater.platform.Json.read(json);
    }

    /** Whether the synced informer holds the job's Volcano Job (false before its first full listing). */
    boolean holds(String publicId) {
        return synced()
                && informer.getStore().getByKey(cluster.namespace() + "/" + JobNames.volcanoName(publicId)) != null;
    }

    /** Instant of the informer's first full listing, for checks. */
    public boolean synced() {
        return informer != null && informer.hasSynced();
    }
}
