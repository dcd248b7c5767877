package io.crater.job;

import io.crater.platform.Sql;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** How a job stands for a feature that started it (a download): its state and its last change's reason. */
@ApplicationScoped
public class JobEndings {

    /** A job's state with the reason and message of its last change. */
    public record Ending(String state, String reason, String message) {
        public boolean ended() {
            return switch (state) {
                case "Succeeded", "Failed", "Stopped", "Rejected" -> true;
                default -> false;
            };
        }
    }

    /** The job's state and last change; null when there is no such job or it was deleted. In the caller's session. */
    public Uni<Ending> of(String publicId) {
        return Sql.row(
                        "SELECT j.state, t.reason, t.message FROM jobs j LEFT JOIN LATERAL (SELECT reason, message FROM"
                                + " job_transitions WHERE job_id = j.id ORDER BY id DESC LIMIT 1) t ON TRUE"
                                + " WHERE j.public_id = ?1 AND j.deleted_at IS NULL",
                        publicId)
                .map(r -> r.map(x -> new Ending((String) x[0], (String) x[1], (String) x[2]))
                        .orElse(null));
    }
}
