package io.crater.interactive;

import io.crater.job.PodAccess;
import io.crater.platform.Sql;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * The record of every terminal and SSH session: user, job, pod, client, start, end and bytes each way. A session's
 * row is written when it opens, so a replica that dies mid-session still leaves who was in which pod.
 */
@ApplicationScoped
public class SessionLog {

    private static final Logger LOG = Logger.getLogger(SessionLog.class);

    /** An open session's row and its byte counters ({@code in}: from the client into the pod). */
    public static final class Open {
        final long id;
        public final AtomicLong in = new AtomicLong();
        public final AtomicLong out = new AtomicLong();
        private final java.util.concurrent.atomic.AtomicBoolean ended = new java.util.concurrent.atomic.AtomicBoolean();

        Open(long id) {
            this.id = id;
        }
    }

    /** Writes the session's row; call inside a request or on a Vert.x context. */
    public Uni<Open> start(String channel, long userId, PodAccess.Target target, String client) {
        return Panache.withTransaction(() -> Sql.insertReturningId(
                        "INSERT INTO interactive_sessions (channel, user_id, job_public_id, pod, client, as_admin)"
                                + " VALUES (?1, ?2, ?3, ?4, ?5, ?6) RETURNING id",
                        channel,
                        userId,
                        target.job(),
                        target.pod(),
                        client,
                        target.asAdmin()))
                .map(Open::new);
    }

    /** Closes the row with the bytes counted, once, from any thread. */
    public void end(Open open) {
        if (open == null || !open.ended.compareAndSet(false, true)) {
            return;
        }
        // Ends are reported on exec and SSH threads, event loops among them: the write runs from a worker.
        io.smallrye.mutiny.infrastructure.Infrastructure.getDefaultWorkerPool().execute(() -> {
            try {
                VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(() -> Sql.update(
                        "UPDATE interactive_sessions SET ended_at = now(), bytes_in = ?2, bytes_out = ?3 WHERE id = ?1",
                        open.id,
                        open.in.get(),
                        open.out.get())));
            } catch (Throwable e) {
                LOG.warnf("recording the end of session %d failed: %s", open.id, e.getMessage());
            }
        });
    }
}
