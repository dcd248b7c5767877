package io.crater.images;

import io.crater.platform.Sql;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** The SQL of image builds; call within a session (writes within a transaction). */
@ApplicationScoped
class ImageBuildQueries {

    /** A build as stored, with the public id of the catalogue entry it made (null until it succeeded). */
    record BuildRow(
            long id,
            String publicId,
            long ownerId,
            long accountId,
            String jobPublicId,
            String source,
            String base,
            String pip,
            String apt,
            String dockerfile,
            String destination,
            String registryHost,
            boolean plainHttp,
            String credential,
            String builder,
            String description,
            String cudaVersion,
            String kinds,
            String vendors,
            String state,
            String reason,
            String detail,
            String logTail,
            String imagePublicId,
            String digest,
            Instant createdAt,
            Instant finishedAt) {

        static final String COLUMNS = "b.id, b.public_id, b.owner_id, b.account_id, b.job_public_id, b.source, b.base,"
                + " b.pip, b.apt, b.dockerfile, b.destination, b.registry_host, b.plain_http, b.credential, b.builder,"
                + " b.description, b.cuda_version, b.kinds, b.vendors, b.state, b.reason, b.detail, b.log_tail,"
                + " (SELECT i.public_id FROM images i WHERE i.id = b.image_id), b.digest, b.created_at, b.finished_at";

        static BuildRow of(Object[] r) {
            return new BuildRow(
                    Sql.longOf(r[0]),
                    (String) r[1],
                    Sql.longOf(r[2]),
                    Sql.longOf(r[3]),
                    (String) r[4],
                    (String) r[5],
                    (String) r[6],
                    (String) r[7],
                    (String) r[8],
                    (String) r[9],
                    (String) r[10],
                    (String) r[11],
                    (Boolean) r[12],
                    (String) r[13],
                    (String) r[14],
                    (String) r[15],
                    (String) r[16],
                    (String) r[17],
                    (String) r[18],
                    (String) r[19],
                    (String) r[20],
                    (String) r[21],
                    (String) r[22],
                    (String) r[23],
                    (String) r[24],
                    Sql.instant(r[25]),
                    Sql.instant(r[26]));
        }

        /** The build as its owner sees it, with its job as it stands ({@code job} null: deleted). */
        ImageBuildViews.Build view(String owner, String account, io.crater.job.JobEnds.End job) {
            return new ImageBuildViews.Build(
                    publicId,
                    owner,
                    account,
                    source,
                    base,
                    ImageChecks.listOf(pip),
                    ImageChecks.listOf(apt),
                    dockerfile,
                    destination,
                    credential,
                    builder,
                    description,
                    state,
                    jobPublicId,
                    job == null ? null : job.state(),
                    reason,
                    detail,
                    logTail,
                    imagePublicId,
                    digest,
                    createdAt,
                    finishedAt);
        }
    }

    Uni<Long> insert(BuildRow b) {
        return Sql.insertReturningId(
                "INSERT INTO image_builds (public_id, owner_id, account_id, job_public_id, source, base, pip, apt,"
                        + " dockerfile, destination, registry_host, plain_http, credential, builder, description,"
                        + " cuda_version, kinds, vendors, state) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11,"
                        + " ?12, ?13, ?14, ?15, ?16, ?17, ?18, 'building') RETURNING id",
                b.publicId(),
                b.ownerId(),
                b.accountId(),
                b.jobPublicId(),
                b.source(),
                b.base(),
                b.pip(),
                b.apt(),
                b.dockerfile(),
                b.destination(),
                b.registryHost(),
                b.plainHttp(),
                b.credential(),
                b.builder(),
                b.description(),
                b.cudaVersion(),
                b.kinds(),
                b.vendors());
    }

    Uni<Optional<BuildRow>> byPublicId(String publicId) {
        return Sql.row("SELECT " + BuildRow.COLUMNS + " FROM image_builds b WHERE b.public_id = ?1", publicId)
                .map(r -> r.map(BuildRow::of));
    }

    Uni<Optional<BuildRow>> byJob(String jobPublicId) {
        return Sql.row("SELECT " + BuildRow.COLUMNS + " FROM image_builds b WHERE b.job_public_id = ?1", jobPublicId)
                .map(r -> r.map(BuildRow::of));
    }

    /** The owner's builds (every build for {@code ownerId} null), newest first, before the id, one more than asked. */
    Uni<List<BuildRow>> list(Long ownerId, long beforeId, int limit) {
        return Sql.rows(
                        "SELECT " + BuildRow.COLUMNS + " FROM image_builds b WHERE (?1 = 0 OR b.id < ?1)"
                                + " AND (CAST(?2 AS bigint) IS NULL OR b.owner_id = ?2) ORDER BY b.id DESC LIMIT ?3",
                        beforeId,
                        ownerId,
                        limit + 1)
                .map(rows -> rows.stream().map(BuildRow::of).toList());
    }

    /** Builds not finished yet, locked for this transaction; those another replica holds are skipped. */
    Uni<List<BuildRow>> claimOpen(int limit) {
        return Sql.rows(
                        "SELECT " + BuildRow.COLUMNS + " FROM image_builds b WHERE b.state IN ('building', 'pushed')"
                                + " ORDER BY b.id LIMIT ?1 FOR UPDATE SKIP LOCKED",
                        limit)
                .map(rows -> rows.stream().map(BuildRow::of).toList());
    }

    /** Locks the build's row for this transaction if it is still {@code pushed}; whether it is. */
    Uni<Boolean> lockPushed(long id) {
        return Sql.rows("SELECT id FROM image_builds WHERE id = ?1 AND state = 'pushed' FOR UPDATE", id)
                .map(rows -> !rows.isEmpty());
    }

    Uni<Integer> pushed(long id) {
        return Sql.update("UPDATE image_builds SET state = 'pushed' WHERE id = ?1 AND state = 'building'", id);
    }

    Uni<Integer> end(long id, String state, String reason, String detail, String logTail) {
        return Sql.update(
                "UPDATE image_builds SET state = ?2, reason = ?3, detail = ?4, log_tail = ?5, finished_at = now()"
                        + " WHERE id = ?1 AND state IN ('building', 'pushed')",
                id,
                state,
                reason,
                detail,
                logTail);
    }

    Uni<Integer> succeeded(long id, long imageId, String digest, String logTail) {
        return Sql.update(
                "UPDATE image_builds SET state = 'succeeded', image_id = ?2, digest = ?3, log_tail = ?4,"
                        + " finished_at = now() WHERE id = ?1 AND state = 'pushed'",
                id,
                imageId,
                digest,
                logTail);
    }

    /** The owner's catalogue entry of this reference, if any. */
    Uni<Optional<ImageQueries.ImageRow>> ownImage(long ownerId, String reference) {
        return Sql.row(
                        "SELECT " + ImageQueries.ImageRow.COLUMNS + " FROM images i WHERE i.owner_id = ?1"
                                + " AND i.reference = ?2",
                        ownerId,
                        reference)
                .map(r -> r.map(ImageQueries.ImageRow::of));
    }
}
