package io.crater.tensorboard;

import io.crater.platform.Sql;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The SQL of TensorBoard panels: {@code tensorboards} and {@code tensorboard_sources}, in the caller's session. */
@ApplicationScoped
class TensorboardQueries {

    static final String COLUMNS =
            "t.id, t.public_id, t.user_id, t.name, t.job_id, t.stopped_reason, t.stopped_at," + " t.created_at";

    /** A panel's row. {@code jobId}: its latest server job. */
    record PanelRow(
            long id,
            String publicId,
            long userId,
            String name,
            Long jobId,
            String stoppedReason,
            Instant stoppedAt,
            Instant createdAt) {
        static PanelRow of(Object[] r) {
            return new PanelRow(
                    Sql.longOf(r[0]),
                    (String) r[1],
                    Sql.longOf(r[2]),
                    (String) r[3],
                    r[4] == null ? null : Sql.longOf(r[4]),
                    (String) r[5],
                    Sql.instant(r[6]),
                    Sql.instant(r[7]));
        }
    }

    /** One of a panel's folders, in order. */
    record SourceRow(int position, String name, String space, String path, String job, String claimPath) {}

    /** A folder with its panel's id, as the source queries read it. */
    record PanelSource(long panelId, SourceRow source) {
        static PanelSource of(Object[] r) {
            return new PanelSource(
                    Sql.longOf(r[0]),
                    new SourceRow(
                            ((Number) r[1]).intValue(),
                            (String) r[2],
                            (String) r[3],
                            (String) r[4],
                            (String) r[5],
                            (String) r[6]));
        }
    }

    /** Whether the user has a panel of this name. */
    Uni<Boolean> nameTaken(long userId, String name) {
        return Sql.count(
                        "SELECT count(*) FROM tensorboards WHERE user_id = ?1 AND name = ?2 AND deleted_at IS NULL",
                        userId,
                        name)
                .map(n -> n > 0);
    }

    /** A new panel running as job {@code jobId}, with its folders; call in the job's insert transaction. */
    Uni<Long> insert(String publicId, long userId, String name, long jobId, List<SourceRow> sources) {
        return Sql.insertReturningId(
                        "INSERT INTO tensorboards (public_id, user_id, name, job_id) VALUES (?1, ?2, ?3, ?4)"
                                + " RETURNING id",
                        publicId,
                        userId,
                        name,
                        jobId)
                .call(id -> {
                    Uni<Integer> all = Uni.createFrom().item(0);
                    for (SourceRow s : sources) {
                        all = all.flatMap(n -> Sql.update(
                                "INSERT INTO tensorboard_sources (tensorboard_id, position, name, space, path,"
                                        + " job_public_id, claim_path) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                                id,
                                s.position(),
                                s.name(),
                                s.space(),
                                s.path(),
                                s.job(),
                                s.claimPath()));
                    }
                    return all;
                });
    }

    Uni<Optional<PanelRow>> byPublicId(String publicId) {
        return Sql.row(
                        "SELECT " + COLUMNS + " FROM tensorboards t WHERE t.public_id = ?1 AND t.deleted_at IS NULL",
                        publicId)
                .map(r -> r.map(PanelRow::of));
    }

    /** A user's panels, newest first. */
    Uni<List<PanelRow>> of(long userId) {
        return Sql.rows(
                        "SELECT " + COLUMNS + " FROM tensorboards t WHERE t.user_id = ?1 AND t.deleted_at IS NULL"
                                + " ORDER BY t.id DESC",
                        userId)
                .map(rows -> rows.stream().map(PanelRow::of).toList());
    }

    /** Every panel that has a server job (the idle check keeps those running). */
    Uni<List<PanelRow>> withJobs() {
        return Sql.rows("SELECT " + COLUMNS
                        + " FROM tensorboards t WHERE t.job_id IS NOT NULL AND t.deleted_at IS NULL")
                .map(rows -> rows.stream().map(PanelRow::of).toList());
    }

    /** The folders of these panels, by panel id, in order. */
    Uni<Map<Long, List<SourceRow>>> sources(List<Long> panelIds) {
        if (panelIds.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return Sql.rows(
                        "SELECT tensorboard_id, position, name, space, path, job_public_id, claim_path"
                                + " FROM tensorboard_sources WHERE tensorboard_id = ANY (CAST(string_to_array(?1, ',')"
                                + " AS bigint[])) ORDER BY tensorboard_id, position",
                        Sql.commaList(panelIds))
                .map(rows -> {
                    Map<Long, List<SourceRow>> out = new HashMap<>();
                    rows.stream()
                            .map(PanelSource::of)
                            .forEach(x -> out.computeIfAbsent(x.panelId(), k -> new ArrayList<>())
                                    .add(x.source()));
                    return out;
                });
    }

    /** The folders the server job {@code jobId} of a panel mounts, in order. */
    Uni<List<SourceRow>> ofJob(long jobId) {
        return Sql.rows(
                        "SELECT s.tensorboard_id, s.position, s.name, s.space, s.path, s.job_public_id, s.claim_path"
                                + " FROM tensorboard_sources s JOIN tensorboards t ON t.id = s.tensorboard_id"
                                + " WHERE t.job_id = ?1 ORDER BY s.position",
                        jobId)
                .map(rows -> rows.stream().map(r -> PanelSource.of(r).source()).toList());
    }

    /** The panel now runs as job {@code jobId}: its last stop is forgotten. */
    Uni<Integer> started(long panelId, long jobId) {
        return Sql.update(
                "UPDATE tensorboards SET job_id = ?2, stopped_reason = NULL, stopped_at = NULL WHERE id = ?1",
                panelId,
                jobId);
    }

    /**
     * The panel's new server job, only if its job is still {@code previous} (null: none): of two starts at once, the
     * second finds the first's job there and changes nothing (0).
     */
    Uni<Integer> startedAfter(long panelId, Long previous, long jobId) {
        return Sql.update(
                "UPDATE tensorboards SET job_id = ?2, stopped_reason = NULL, stopped_at = NULL"
                        + " WHERE id = ?1 AND job_id IS NOT DISTINCT FROM ?3",
                panelId,
                jobId,
                previous);
    }

    /** Why and when the panel stopped. */
    Uni<Integer> stopped(long panelId, String reason, Instant at) {
        return Sql.update(
                "UPDATE tensorboards SET stopped_reason = ?2, stopped_at = ?3 WHERE id = ?1", panelId, reason, at);
    }

    /** Deletes the panel (its folders' files are never touched). */
    Uni<Integer> delete(long panelId) {
        return Sql.update("UPDATE tensorboards SET deleted_at = now() WHERE id = ?1 AND deleted_at IS NULL", panelId);
    }
}
