package io.crater.files;

import io.crater.platform.Sql;
import io.crater.policy.FileQuota;
import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** The files feature's SQL: trash entries and quota overrides, each read through a named row mapper. */
final class FileQueries {

    private FileQueries() {}

    /** One entry of a space's trash. */
    record TrashRow(
            long id, String space, String originalPath, boolean folder, long bytes, long files, Instant deletedAt) {
        static final String COLUMNS = "id, space, original_path, is_folder, bytes, files, deleted_at";

        static TrashRow of(Object[] r) {
            return new TrashRow(
                    Sql.longOf(r[0]),
                    (String) r[1],
                    (String) r[2],
                    (Boolean) r[3],
                    Sql.longOf(r[4]),
                    Sql.longOf(r[5]),
                    Sql.instant(r[6]));
        }
    }

    /** A quota a platform admin set on a space. */
    record QuotaRow(long maxBytes, long maxFiles) {
        static QuotaRow of(Object[] r) {
            return new QuotaRow(Sql.longOf(r[0]), Sql.longOf(r[1]));
        }

        FileQuota.Limit limit() {
            return new FileQuota.Limit(maxBytes, maxFiles);
        }
    }

    static Uni<Long> trash(String space, String path, boolean folder, long bytes, long files, Long userId) {
        return Sql.insertReturningId(
                "INSERT INTO file_trash (space, original_path, is_folder, bytes, files, deleted_by)"
                        + " VALUES (?1, ?2, ?3, ?4, ?5, ?6) RETURNING id",
                space,
                path,
                folder,
                bytes,
                files,
                userId);
    }

    static Uni<List<TrashRow>> trashOf(String space) {
        return Sql.rows(
                        "SELECT " + TrashRow.COLUMNS
                                + " FROM file_trash WHERE space = ?1 ORDER BY deleted_at DESC, id DESC",
                        space)
                .map(rows -> rows.stream().map(TrashRow::of).toList());
    }

    static Uni<Optional<TrashRow>> trashEntry(String space, long id) {
        return Sql.row("SELECT " + TrashRow.COLUMNS + " FROM file_trash WHERE space = ?1 AND id = ?2", space, id)
                .map(r -> r.map(TrashRow::of));
    }

    static Uni<List<TrashRow>> expired(Instant before) {
        return Sql.rows(
                        "SELECT " + TrashRow.COLUMNS + " FROM file_trash WHERE deleted_at < ?1 ORDER BY id LIMIT 500",
                        before)
                .map(rows -> rows.stream().map(TrashRow::of).toList());
    }

    static Uni<Integer> forget(long id) {
        return Sql.update("DELETE FROM file_trash WHERE id = ?1", id);
    }

    static Uni<Optional<QuotaRow>> quota(String space) {
        return Sql.row("SELECT max_bytes, max_files FROM file_quotas WHERE space = ?1", space)
                .map(r -> r.map(QuotaRow::of));
    }

    static Uni<Integer> setQuota(String space, long bytes, long files, long userId) {
        return Sql.update(
                "INSERT INTO file_quotas (space, max_bytes, max_files, set_by) VALUES (?1, ?2, ?3, ?4)"
                        + " ON CONFLICT (space) DO UPDATE SET max_bytes = ?2, max_files = ?3, set_by = ?4, updated_at = now()",
                space,
                bytes,
                files,
                userId);
    }

    static Uni<Integer> clearQuota(String space) {
        return Sql.update("DELETE FROM file_quotas WHERE space = ?1", space);
    }
}
