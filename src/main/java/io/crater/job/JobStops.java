package io.crater.job;

import io.crater.audit.AuditService;
import io.crater.identity.Caller;
import io.crater.job.JobViews.JobSummary;
import io.crater.platform.ApiException;
import io.crater.platform.Sql;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Stopping and deleting jobs: asked by a person (the owner, an admin of the job's account, a platform admin) or
 * by Crater itself (idle reclamation, an archived account). The state moves in the caller's transaction; the
 * Volcano Job is deleted after it, with what the pods wrote archived first.
 */
@ApplicationScoped
public class JobStops {

    private static final Logger LOG = Logger.getLogger(JobStops.class);

    @Inject
    JobQueries queries;

    @Inject
    AuditService audit;

    @Inject
    JobApplier applier;

    @Inject
    JobLogs logs;

    @Inject
    Vertx vertx;

    @Inject
    JobReconciler reconciler;

    /** Stops a job: its owner, an admin of its account, or a platform admin. */
    public Uni<JobSummary> stop(String publicId, Caller caller) {
        return Panache.withTransaction(() -> queries.visible(publicId, caller).flatMap(v -> {
                    if (!v.mayAct()) {
                        throw ApiException.forbidden(
                                "NotJobOwner", "only the job's owner or an admin of its account may stop it");
                    }
                    // The state as of the lock: an admission round committing meanwhile is either seen
                    // here or waits for this transaction and then finds the job no longer queued.
                    return Sql.strings("SELECT state FROM jobs WHERE id = ?1 FOR UPDATE", v.id())
                            .flatMap(states -> mark(v, states.get(0), caller));
                }))
                .flatMap(state -> state.equals("Queued")
                        ? Uni.createFrom().voidItem()
                        : vertx.executeBlocking(Uni.createFrom().item(() -> {
                                    release(publicId);
                                    return null;
                                }))
                                .replaceWithVoid())
                .flatMap(v -> queries.summary(publicId));
    }

    /**
     * In the stop's transaction, the job's row locked: asks for the stop and moves the job (a queued one ends at once,
     * one being stopped stays so), audited; the state it was in.
     */
    private Uni<String> mark(JobQueries.Visible v, String state, Caller caller) {
        if (JobRow.terminal(state)) {
            throw new ApiException(
                    409, "JobFinished", "Conflict", "the job is " + state + " already", null, null, null);
        }
        String by = caller.user().username();
        Uni<Boolean> move = state.equals("Queued")
                ? JobStates.move(
                        v.id(), state, "Stopped", "Stopped", "stopped before it was admitted", Map.of("queued", 1L))
                : state.equals("Stopping")
                        ? Uni.createFrom().item(true)
                        : JobStates.move(
                                v.id(), state, "Stopping", "StopRequested", "stop asked by " + by, Map.of("by", by));
        return Sql.update("UPDATE jobs SET stop_requested = TRUE WHERE id = ?1", v.id())
                .flatMap(x -> move)
                .flatMap(x -> audit.record(
                        caller.actor(v.row().account()),
                        "job.stop",
                        "job",
                        v.row().publicId(),
                        Map.of("state", state),
                        null))
                .replaceWith(state);
    }

    /**
     * Crater's own stop of a running job (idle reclamation), in the caller's transaction: asks for the stop and moves
     * the job to Stopping with the reason and its arguments, which it keeps when it ends Stopped. False when it is no longer running or
     * is being stopped already. Its Volcano Job is deleted by {@link #release} after the commit.
     */
    public Uni<Boolean> markStopping(long jobId, String reason, String message, Map<String, ?> args) {
        return Sql.update(
                        "UPDATE jobs SET stop_requested = TRUE WHERE id = ?1 AND state = 'Running' AND NOT stop_requested",
                        jobId)
                .flatMap(n -> n == 0
                        ? Uni.createFrom().item(false)
                        : JobStates.move(jobId, "Running", "Stopping", reason, message, args)
                                .replaceWith(true));
    }

    /**
     * After a {@link #markStopping} has committed: keeps what the pods wrote, then deletes the Volcano Job (its pods
     * get their termination grace period). Blocking: call from a worker thread.
     */
    public void release(String publicId) {
        try {
            logs.archive(publicId);
        } catch (Throwable e) {
            LOG.warnf("archiving %s before stopping failed: %s", publicId, e.getMessage());
        }
        applier.delete(publicId);
        reconciler.endIfNeverMade(publicId);
    }

    /** Deletes a finished job from lists and detail (its owner, an admin of its account, a platform admin). */
    public Uni<Void> delete(String publicId, Caller caller) {
        return Panache.withTransaction(() -> queries.visible(publicId, caller).flatMap(v -> {
            if (!v.mayAct()) {
                throw ApiException.forbidden(
                        "NotJobOwner", "only the job's owner or an admin of its account may delete it");
            }
            if (!JobRow.terminal(v.state())) {
                throw new ApiException(
                        409,
                        "JobNotFinished",
                        "Conflict",
                        "the job is " + v.state() + "; stop it first",
                        null,
                        null,
                        null);
            }
            // Kept as a row (usage and the audit trail refer to it), gone from every view.
            return Sql.update("UPDATE jobs SET deleted_at = now() WHERE id = ?1", v.id())
                    .flatMap(n ->
                            audit.record(caller.actor(v.row().account()), "job.delete", "job", publicId, null, null));
        }));
    }
}
