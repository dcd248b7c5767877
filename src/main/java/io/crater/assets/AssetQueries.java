package io.crater.assets;

import io.crater.platform.Sql;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/** The datasets-and-models feature's SQL: only its own tables, each row read by a named mapper. */
@ApplicationScoped
class AssetQueries {

    /** An entry's row. */
    record AssetRow(
            long id,
            String publicId,
            String kind,
            String name,
            long ownerId,
            String description,
            String space,
            String path,
            String targetType,
            long sizeBytes,
            long files,
            Instant measuredAt,
            String licence,
            String source,
            String revision,
            String visibility,
            Long accountId,
            String tags,
            Instant createdAt,
            Instant updatedAt) {

        static final String COLUMNS = "a.id, a.public_id, a.kind, a.name, a.owner_id, a.description, a.space, a.path,"
                + " a.target_type, a.size_bytes, a.file_count, a.measured_at, a.licence, a.source, a.revision,"
                + " a.visibility, a.account_id, a.tags, a.created_at, a.updated_at";

        static AssetRow of(Object[] r) {
            return new AssetRow(
                    Sql.longOf(r[0]),
                    (String) r[1],
                    (String) r[2],
                    (String) r[3],
                    Sql.longOf(r[4]),
                    (String) r[5],
                    (String) r[6],
                    (String) r[7],
                    (String) r[8],
                    Sql.longOf(r[9]),
                    Sql.longOf(r[10]),
                    Sql.instant(r[11]),
                    (String) r[12],
                    (String) r[13],
                    (String) r[14],
                    (String) r[15],
                    r[16] == null ? null : Sql.longOf(r[16]),
                    (String) r[17],
                    Sql.instant(r[18]),
                    Sql.instant(r[19]));
        }
    }

    /** A job's mount as stored, with where its entry lies now (space and path null once the entry is deleted). */
    record MountRow(
            String mountPath, String kind, String name, String publicId, Long ownerId, String space, String path) {
        static MountRow of(Object[] r) {
            return new MountRow(
                    (String) r[0],
                    (String) r[1],
                    (String) r[2],
                    (String) r[3],
                    r[4] == null ? null : Sql.longOf(r[4]),
                    (String) r[5],
                    (String) r[6]);
        }
    }

    /** The id an insert returned. */
    record Inserted(long id) {
        static Inserted of(Object[] r) {
            return new Inserted(Sql.longOf(r[0]));
        }
    }

    /** Who is asking, as the visibility rule needs: their id, whether a platform admin, their accounts' ids. */
    record Viewer(long userId, boolean platformAdmin, List<Long> accountIds) {

        /** The condition an entry {@code a} must meet to be seen, its parameters appended to {@code params}. */
        String condition(List<Object> params) {
            if (platformAdmin) {
                return "TRUE";
            }
            params.add(userId);
            int me = params.size();
            params.add(accountIds.stream().map(String::valueOf).collect(Collectors.joining(",")));
            int accounts = params.size();
            return "(a.owner_id = ?" + me + " OR a.visibility = 'public' OR (a.visibility = 'account' AND a.account_id"
                    + " = ANY (CAST(string_to_array(?" + accounts + ", ',') AS bigint[]))))";
        }
    }

    /** List filters; null or blank: not filtered. */
    record Filter(String kind, String tag, String q, String visibility, Long accountId, Long ownerId) {}

    Uni<List<AssetRow>> list(Viewer viewer, Filter f, long beforeId, int limit) {
        List<Object> params = new ArrayList<>();
        StringBuilder where = new StringBuilder(viewer.condition(params));
        if (beforeId > 0) {
            params.add(beforeId);
            where.append(" AND a.id < ?").append(params.size());
        }
        equal(where, params, "a.kind", f.kind());
        equal(where, params, "a.visibility", f.visibility());
        equal(where, params, "a.account_id", f.accountId());
        equal(where, params, "a.owner_id", f.ownerId());
        if (f.tag() != null) {
            params.add("," + f.tag() + ",");
            where.append(" AND position(?").append(params.size()).append(" in a.tags) > 0");
        }
        if (f.q() != null) {
            params.add(f.q().toLowerCase());
            int n = params.size();
            where.append(" AND (position(?" + n + " in lower(a.name)) > 0 OR position(?" + n
                    + " in lower(a.description)) > 0)");
        }
        params.add(limit + 1);
        return Sql.rows(
                        "SELECT " + AssetRow.COLUMNS + " FROM assets a WHERE " + where + " ORDER BY a.id DESC LIMIT ?"
                                + params.size(),
                        params.toArray())
                .map(rows -> rows.stream().map(AssetRow::of).toList());
    }

    private static void equal(StringBuilder where, List<Object> params, String column, Object value) {
        if (value != null) {
            params.add(value);
            where.append(" AND ").append(column).append(" = ?").append(params.size());
        }
    }

    Uni<Optional<AssetRow>> byPublicId(String publicId) {
        return Sql.row("SELECT " + AssetRow.COLUMNS + " FROM assets a WHERE a.public_id = ?1", publicId)
                .map(r -> r.map(AssetRow::of));
    }

    /** The entries of a kind and name the viewer sees (of one owner when {@code ownerId} is given). */
    Uni<List<AssetRow>> named(Viewer viewer, String kind, String name, Long ownerId) {
        List<Object> params = new ArrayList<>(List.of(kind, name));
        String owner = "";
        if (ownerId != null) {
            params.add(ownerId);
            owner = " AND a.owner_id = ?3";
        }
        String visible = viewer.condition(params);
        return Sql.rows(
                        "SELECT " + AssetRow.COLUMNS + " FROM assets a WHERE a.kind = ?1 AND a.name = ?2" + owner
                                + " AND " + visible + " ORDER BY a.id",
                        params.toArray())
                .map(rows -> rows.stream().map(AssetRow::of).toList());
    }

    /** Inserts unless the owner has an entry of that kind and name; the new id, or empty. */
    Uni<Optional<Long>> insert(AssetRow a) {
        return Sql.rows(
                        "INSERT INTO assets (public_id, kind, name, owner_id, description, space, path, target_type,"
                                + " size_bytes, file_count, measured_at, licence, source, revision, visibility, account_id, tags)"
                                + " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)"
                                + " ON CONFLICT ON CONSTRAINT assets_owner_name DO NOTHING RETURNING id",
                        a.publicId(),
                        a.kind(),
                        a.name(),
                        a.ownerId(),
                        a.description(),
                        a.space(),
                        a.path(),
                        a.targetType(),
                        a.sizeBytes(),
                        a.files(),
                        a.measuredAt(),
                        a.licence(),
                        a.source(),
                        a.revision(),
                        a.visibility(),
                        a.accountId(),
                        a.tags())
                .map(rows -> rows.stream().findFirst().map(r -> Inserted.of(r).id()));
    }

    /** Whether another entry of the owner has that kind and name. */
    Uni<Boolean> nameTaken(long ownerId, String kind, String name, long exceptId) {
        return Sql.count(
                        "SELECT count(*) FROM assets WHERE owner_id = ?1 AND kind = ?2 AND name = ?3 AND id <> ?4",
                        ownerId,
                        kind,
                        name,
                        exceptId)
                .map(n -> n > 0);
    }

    Uni<Integer> update(AssetRow a) {
        return Sql.update(
                "UPDATE assets SET name = ?2, description = ?3, space = ?4, path = ?5, target_type = ?6,"
                        + " size_bytes = ?7, file_count = ?8, measured_at = ?9, licence = ?10, source = ?11,"
                        + " revision = ?12, visibility = ?13, account_id = ?14, tags = ?15, updated_at = now()"
                        + " WHERE id = ?1",
                a.id(),
                a.name(),
                a.description(),
                a.space(),
                a.path(),
                a.targetType(),
                a.sizeBytes(),
                a.files(),
                a.measuredAt(),
                a.licence(),
                a.source(),
                a.revision(),
                a.visibility(),
                a.accountId(),
                a.tags());
    }

    /** Locks the entry against mounts being added while it is deleted; whether it is still there. */
    Uni<Boolean> lock(long id) {
        return Sql.rows("SELECT id FROM assets WHERE id = ?1 FOR UPDATE", id).map(r -> !r.isEmpty());
    }

    Uni<Integer> delete(long id) {
        return Sql.update("DELETE FROM assets WHERE id = ?1", id);
    }

    /** The jobs that mount an entry. */
    Uni<List<Long>> jobsMounting(long assetId) {
        return Sql.longs("SELECT DISTINCT job_id FROM asset_mounts WHERE asset_id = ?1", assetId);
    }

    /** Records a job's mount; the entry is read {@code FOR KEY SHARE} by the foreign key, so a delete waits. */
    Uni<Integer> copyMounts(long fromJobId, long toJobId) {
        return Sql.update(
                "INSERT INTO asset_mounts (job_id, mount_path, asset_id, kind, name) SELECT ?2, mount_path, asset_id,"
                        + " kind, name FROM asset_mounts WHERE job_id = ?1",
                fromJobId,
                toJobId);
    }

    Uni<Integer> addMount(long jobId, String mountPath, long assetId, String kind, String name) {
        return Sql.update(
                "INSERT INTO asset_mounts (job_id, mount_path, asset_id, kind, name) VALUES (?1, ?2, ?3, ?4, ?5)",
                jobId,
                mountPath,
                assetId,
                kind,
                name);
    }

    Uni<List<MountRow>> mountsOf(long jobId) {
        return Sql.rows(
                        "SELECT m.mount_path, m.kind, m.name, a.public_id, a.owner_id, a.space, a.path FROM asset_mounts m"
                                + " LEFT JOIN assets a ON a.id = m.asset_id WHERE m.job_id = ?1 ORDER BY m.mount_path",
                        jobId)
                .map(rows -> rows.stream().map(MountRow::of).toList());
    }
}
