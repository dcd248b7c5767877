package io.crater.job;

import io.crater.platform.Sql;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How jobs another feature started stand (an image build's job, for the catalogue): the state, the reason and message
 * of the last move, and for an ended job its main container's exit code and the last part of its log, as archived.
 */
@ApplicationScoped
public class JobEnds {

    /** One job as it stands; {@code exitCode} and {@code logTail} are null until its containers are archived. */
    public record End(
            String publicId,
            String state,
            String reason,
            String message,
            Integer exitCode,
            String logTail,
            Instant finishedAt) {

        static End of(Object[] r) {
            return new End(
                    (String) r[0],
                    (String) r[1],
                    (String) r[2],
                    (String) r[3],
                    Sql.intOrNull(r[4]),
                    (String) r[5],
                    Sql.instant(r[6]));
        }

        /** Whether the job has ended. */
        public boolean ended() {
            return JobRow.terminal(state);
        }
    }

    /** The jobs with these public ids, by id (a deleted job is left out). Call within a session. */
    public Uni<Map<String, End>> of(Collection<String> publicIds) {
        if (publicIds.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return Sql.rows(
                        "SELECT j.public_id, j.state, t.reason, t.message, a.exit_code, a.log_tail, j.finished_at"
                                + " FROM jobs j"
                                + " LEFT JOIN LATERAL (SELECT reason, message FROM job_transitions"
                                + " WHERE job_id = j.id ORDER BY id DESC LIMIT 1) t ON true"
                                + " LEFT JOIN LATERAL (SELECT exit_code, log_tail FROM job_archives"
                                + " WHERE job_id = j.id AND container = 'main' ORDER BY id LIMIT 1) a ON true"
                                + " WHERE j.public_id = ANY(string_to_array(?1, ',')) AND j.deleted_at IS NULL",
                        Sql.commaList(publicIds))
                .map(rows -> {
                    Map<String, End> out = new LinkedHashMap<>();
                    rows.stream().map(End::of).forEach(e -> out.put(e.publicId(), e));
                    return out;
                });
    }

    /** The job with this public id, if it is still kept. */
    public Uni<java.util.Optional<End>> of(String publicId) {
        return of(List.of(publicId)).map(m -> java.util.Optional.ofNullable(m.get(publicId)));
    }
}
