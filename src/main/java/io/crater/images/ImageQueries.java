package io.crater.images;

import io.crater.platform.Sql;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The image catalogue's SQL: only its own tables, each row read by a named mapper. */
@ApplicationScoped
class ImageQueries {

    /** An image's row; the lists as stored (between commas). */
    record ImageRow(
            long id,
            String publicId,
            String reference,
            long ownerId,
            String description,
            String tags,
            String cudaVersion,
            String architectures,
            String vendors,
            String kinds,
            String visibility,
            Long accountId,
            Instant createdAt,
            Instant updatedAt) {

        static final String COLUMNS = "i.id, i.public_id, i.reference, i.owner_id, i.description, i.tags,"
                + " i.cuda_version, i.architectures, i.vendors, i.kinds, i.visibility, i.account_id, i.created_at,"
                + " i.updated_at";

        static ImageRow of(Object[] r) {
            return new ImageRow(
                    Sql.longOf(r[0]),
                    (String) r[1],
                    (String) r[2],
                    Sql.longOf(r[3]),
                    (String) r[4],
                    (String) r[5],
                    (String) r[6],
                    (String) r[7],
                    (String) r[8],
                    (String) r[9],
                    (String) r[10],
                    r[11] == null ? null : Sql.longOf(r[11]),
                    Sql.instant(r[12]),
                    Sql.instant(r[13]));
        }
    }

    /** One reader an image is shared with: a user or an account (the other is null). */
    record ShareRow(long imageId, Long userId, Long accountId) {
        static ShareRow of(Object[] r) {
            return new ShareRow(
                    Sql.longOf(r[0]), r[1] == null ? null : Sql.longOf(r[1]), r[2] == null ? null : Sql.longOf(r[2]));
        }
    }

    /** The last validation of one tag. */
    record CheckRow(
            long imageId, String tag, String result, String detail, String digest, String mediaType, Instant at) {
        static CheckRow of(Object[] r) {
            return new CheckRow(
                    Sql.longOf(r[0]),
                    (String) r[1],
                    (String) r[2],
                    (String) r[3],
                    (String) r[4],
                    (String) r[5],
                    Sql.instant(r[6]));
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

        /** The condition an image {@code i} must meet to be seen, its parameters appended to {@code params}. */
        String condition(List<Object> params) {
            if (platformAdmin) {
                return "TRUE";
            }
            params.add(userId);
            int me = params.size();
            params.add(Sql.commaList(accountIds));
            int mine = params.size();
            String accounts = "CAST(string_to_array(?" + mine + ", ',') AS bigint[])";
            return "(i.owner_id = ?" + me + " OR i.visibility = 'public'"
                    + " OR (i.visibility = 'account' AND i.account_id = ANY (" + accounts + "))"
                    + " OR EXISTS (SELECT 1 FROM image_shares s WHERE s.image_id = i.id AND (s.user_id = ?" + me
                    + " OR s.account_id = ANY (" + accounts + "))))";
        }
    }

    /** List filters; null: not filtered. {@code kind} and {@code vendor} keep the images that fit them. */
    record Filter(String q, String kind, String vendor, String visibility, Long ownerId) {}

    Uni<List<ImageRow>> list(Viewer viewer, Filter f, long beforeId, int limit) {
        List<Object> params = new ArrayList<>();
        StringBuilder where = new StringBuilder(viewer.condition(params));
        if (beforeId > 0) {
            params.add(beforeId);
            where.append(" AND i.id < ?").append(params.size());
        }
        if (f.visibility() != null) {
            params.add(f.visibility());
            where.append(" AND i.visibility = ?").append(params.size());
        }
        if (f.ownerId() != null) {
            params.add(f.ownerId());
            where.append(" AND i.owner_id = ?").append(params.size());
        }
        if (f.kind() != null) {
            params.add("," + f.kind() + ",");
            where.append(" AND (i.kinds = ',' OR position(?")
                    .append(params.size())
                    .append(" in i.kinds) > 0)");
        }
        if (f.vendor() != null) {
            params.add("," + f.vendor() + ",");
            where.append(" AND position(?").append(params.size()).append(" in i.vendors) > 0");
        }
        if (f.q() != null) {
            params.add(f.q().toLowerCase());
            int n = params.size();
            where.append(" AND (position(?" + n + " in lower(i.reference)) > 0 OR position(?" + n
                    + " in lower(i.description)) > 0 OR position(?" + n + " in lower(i.tags)) > 0)");
        }
        params.add(limit + 1);
        return Sql.rows(
                        "SELECT " + ImageRow.COLUMNS + " FROM images i WHERE " + where + " ORDER BY i.id DESC LIMIT ?"
                                + params.size(),
                        params.toArray())
                .map(rows -> rows.stream().map(ImageRow::of).toList());
    }

    Uni<Optional<ImageRow>> byPublicId(String publicId) {
        return Sql.row("SELECT " + ImageRow.COLUMNS + " FROM images i WHERE i.public_id = ?1", publicId)
                .map(r -> r.map(ImageRow::of));
    }

    /** Whether the viewer sees the image of this row id (through its visibility or a share). */
    Uni<Boolean> sees(Viewer viewer, long id) {
        List<Object> params = new ArrayList<>(List.of(id));
        String visible = viewer.condition(params);
        return Sql.count("SELECT count(*) FROM images i WHERE i.id = ?1 AND " + visible, params.toArray())
                .map(n -> n > 0);
    }

    /** Inserts unless the owner has an image of that reference; the new id, or empty. */
    Uni<Optional<Long>> insert(ImageRow i) {
        return Sql.rows(
                        "INSERT INTO images (public_id, reference, owner_id, description, tags, cuda_version,"
                                + " architectures, vendors, kinds, visibility, account_id)"
                                + " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)"
                                + " ON CONFLICT ON CONSTRAINT images_owner_reference DO NOTHING RETURNING id",
                        i.publicId(),
                        i.reference(),
                        i.ownerId(),
                        i.description(),
                        i.tags(),
                        i.cudaVersion(),
                        i.architectures(),
                        i.vendors(),
                        i.kinds(),
                        i.visibility(),
                        i.accountId())
                .map(rows -> rows.stream().findFirst().map(r -> Inserted.of(r).id()));
    }

    /** Whether another image of the owner has that reference. */
    Uni<Boolean> referenceTaken(long ownerId, String reference, long exceptId) {
        return Sql.count(
                        "SELECT count(*) FROM images WHERE owner_id = ?1 AND reference = ?2 AND id <> ?3",
                        ownerId,
                        reference,
                        exceptId)
                .map(n -> n > 0);
    }

    Uni<Integer> update(ImageRow i) {
        return Sql.update(
                "UPDATE images SET reference = ?2, description = ?3, tags = ?4, cuda_version = ?5,"
                        + " architectures = ?6, vendors = ?7, kinds = ?8, visibility = ?9, account_id = ?10,"
                        + " updated_at = now() WHERE id = ?1",
                i.id(),
                i.reference(),
                i.description(),
                i.tags(),
                i.cudaVersion(),
                i.architectures(),
                i.vendors(),
                i.kinds(),
                i.visibility(),
                i.accountId());
    }

    Uni<Integer> delete(long id) {
        return Sql.update("DELETE FROM images WHERE id = ?1", id);
    }

    Uni<List<ShareRow>> shares(List<Long> imageIds) {
        if (imageIds.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return Sql.rows(
                        "SELECT image_id, user_id, account_id FROM image_shares"
                                + " WHERE image_id = ANY (CAST(string_to_array(?1, ',') AS bigint[]))",
                        Sql.commaList(imageIds))
                .map(rows -> rows.stream().map(ShareRow::of).toList());
    }

    /** Replaces the image's shares with these users and accounts. */
    Uni<Void> replaceShares(long imageId, List<Long> userIds, List<Long> accountIds) {
        return Sql.update("DELETE FROM image_shares WHERE image_id = ?1", imageId)
                .flatMap(x -> Sql.update(
                        "INSERT INTO image_shares (image_id, user_id) SELECT ?1, u"
                                + " FROM unnest(CAST(string_to_array(?2, ',') AS bigint[])) u",
                        imageId,
                        Sql.commaList(userIds)))
                .flatMap(x -> Sql.update(
                        "INSERT INTO image_shares (image_id, account_id) SELECT ?1, a"
                                + " FROM unnest(CAST(string_to_array(?2, ',') AS bigint[])) a",
                        imageId,
                        Sql.commaList(accountIds)))
                .replaceWithVoid();
    }

    Uni<List<CheckRow>> checks(List<Long> imageIds) {
        if (imageIds.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return Sql.rows(
                        "SELECT image_id, tag, result, detail, digest, media_type, checked_at FROM image_checks"
                                + " WHERE image_id = ANY (CAST(string_to_array(?1, ',') AS bigint[])) ORDER BY tag",
                        Sql.commaList(imageIds))
                .map(rows -> rows.stream().map(CheckRow::of).toList());
    }

    /** Keeps the checks of these tags only (a tag taken off the list loses its check). */
    Uni<Integer> keepChecks(long imageId, List<String> tags) {
        return Sql.update(
                "DELETE FROM image_checks WHERE image_id = ?1 AND NOT (tag = ANY (string_to_array(?2, ',')))",
                imageId,
                String.join(",", tags));
    }

    Uni<Integer> recordCheck(CheckRow c) {
        return Sql.update(
                "INSERT INTO image_checks (image_id, tag, result, detail, digest, media_type, checked_at)"
                        + " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT (image_id, tag) DO UPDATE SET"
                        + " result = EXCLUDED.result, detail = EXCLUDED.detail, digest = EXCLUDED.digest,"
                        + " media_type = EXCLUDED.media_type, checked_at = EXCLUDED.checked_at",
                c.imageId(),
                c.tag(),
                c.result(),
                c.detail(),
                c.digest(),
                c.mediaType(),
                c.at());
    }
}
