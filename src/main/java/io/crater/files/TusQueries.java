package io.crater.files;

import io.crater.platform.Sql;
import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** The SQL of resumable uploads: one row per unfinished upload, read through a named row mapper. */
final class TusQueries {

    private TusQueries() {}

    /** An unfinished upload: where it goes, how far it is, what it holds of its space's quota. */
    record UploadRow(
            String id,
            long userId,
            String spaceName,
            String space,
            String path,
            boolean overwrite,
            long length,
            long offset,
            long reservedBytes,
            long reservedFiles,
            String metadata,
            Instant expiresAt) {
        static final String COLUMNS = "id, user_id, space_name, space, path, overwrite, upload_length, upload_offset,"
                + " reserved_bytes, reserved_files, metadata, expires_at";

        static UploadRow of(Object[] r) {
            return new UploadRow(
                    (String) r[0],
                    Sql.longOf(r[1]),
                    (String) r[2],
                    (String) r[3],
                    (String) r[4],
                    (Boolean) r[5],
                    Sql.longOf(r[6]),
                    Sql.longOf(r[7]),
                    Sql.longOf(r[8]),
                    Sql.longOf(r[9]),
                    (String) r[10],
                    Sql.instant(r[11]));
        }
    }

    /** What the unfinished uploads of a space hold of its quota. */
    record Reserved(long bytes, long files) {
        static Reserved of(Object[] r) {
            return new Reserved(r[0] == null ? 0 : Sql.longOf(r[0]), r[1] == null ? 0 : Sql.longOf(r[1]));
        }
    }

    /**
     * Serialises reservations in one space across replicas until the end of the transaction, so two uploads cannot
     * both take the last bytes of a quota.
     */
    static Uni<List<Object[]>> lockSpace(String space) {
        return Sql.rows("SELECT 1 FROM pg_advisory_xact_lock(hashtext(?1))", "tus:" + space);
    }

    static Uni<Reserved> reserved(String space) {
        return Sql.row("SELECT SUM(reserved_bytes), SUM(reserved_files) FROM tus_uploads WHERE space = ?1", space)
                .map(r -> r.map(Reserved::of).orElse(new Reserved(0, 0)));
    }

    static Uni<Integer> insert(UploadRow u) {
        return Sql.update(
                "INSERT INTO tus_uploads (id, user_id, space_name, space, path, overwrite, upload_length,"
                        + " reserved_bytes, reserved_files, metadata, expires_at)"
                        + " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
                u.id(),
                u.userId(),
                u.spaceName(),
                u.space(),
                u.path(),
                u.overwrite(),
                u.length(),
                u.reservedBytes(),
                u.reservedFiles(),
                u.metadata(),
                u.expiresAt());
    }

    /** The upload, only when it is the user's: anyone else's is as if it did not exist. */
    static Uni<Optional<UploadRow>> mine(String id, long userId) {
        return Sql.row("SELECT " + UploadRow.COLUMNS + " FROM tus_uploads WHERE id = ?1 AND user_id = ?2", id, userId)
                .map(r -> r.map(UploadRow::of));
    }

    /** Takes the upload for one PATCH: refused (0) while another PATCH holds it and has not gone stale. */
    static Uni<Integer> lock(String id, String token, Instant now, Instant staleBefore) {
        return Sql.update(
                "UPDATE tus_uploads SET patch_token = ?2, patch_since = ?3"
                        + " WHERE id = ?1 AND (patch_token IS NULL OR patch_since < ?4)",
                id,
                token,
                now,
                staleBefore);
    }

    /** Renews a PATCH's hold on the upload; 0 when the PATCH no longer holds it (taken over, terminated, expired). */
    static Uni<Integer> renew(String id, String token, Instant now) {
        return Sql.update("UPDATE tus_uploads SET patch_since = ?3 WHERE id = ?1 AND patch_token = ?2", id, token, now);
    }

    /** Stores the offset reached and lets the upload go, only while this PATCH still holds it. */
    static Uni<Integer> advance(String id, String token, long offset) {
        return Sql.update(
                "UPDATE tus_uploads SET upload_offset = ?3, patch_token = NULL, patch_since = NULL"
                        + " WHERE id = ?1 AND patch_token = ?2",
                id,
                token,
                offset);
    }

    static Uni<Integer> unlock(String id, String token) {
        return Sql.update(
                "UPDATE tus_uploads SET patch_token = NULL, patch_since = NULL WHERE id = ?1 AND patch_token = ?2",
                id,
                token);
    }

    static Uni<Integer> forget(String id) {
        return Sql.update("DELETE FROM tus_uploads WHERE id = ?1", id);
    }

    static Uni<List<UploadRow>> expired(Instant now) {
        return Sql.rows(
                        "SELECT " + UploadRow.COLUMNS + " FROM tus_uploads WHERE expires_at < ?1 ORDER BY id LIMIT 500",
                        now)
                .map(rows -> rows.stream().map(UploadRow::of).toList());
    }
}
