package io.crater.downloads;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.crater.platform.Json;
import io.crater.platform.Sql;
import io.crater.policy.HubDownloads;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The downloads' SQL: only their own tables ({@code downloads}, {@code download_runs}), rows read by named mappers. */
@ApplicationScoped
class DownloadQueries {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<List<String>> STRINGS = new TypeReference<>() {};
    private static final TypeReference<List<HubDownloads.HubFile>> FILES = new TypeReference<>() {};

    private static <T> T read(String json, TypeReference<T> type) {
        try {
            return JSON.readValue(json, type);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("a download's stored list cannot be read", e);
        }
    }

    /** Who is asking, as the visibility rule needs: their id, whether a platform admin, their accounts' ids. */
    record Viewer(long userId, boolean platformAdmin, List<Long> accountIds) {

        /** Whether the viewer sees the download (as they would see the entry it makes). */
        boolean sees(DownloadRow d) {
            return platformAdmin
                    || d.ownerId() == userId
                    || d.visibility().equals("public")
                    || d.visibility().equals("account") && accountIds.contains(d.accountId());
        }

        /** The same rule as SQL on the alias {@code a}, its parameters appended to {@code params}. */
        String condition(List<Object> params) {
            if (platformAdmin) {
                return "TRUE";
            }
            params.add(userId);
            int me = params.size();
            params.add(accountIds.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(",")));
            int accounts = params.size();
            return "(a.owner_id = ?" + me + " OR a.visibility = 'public' OR (a.visibility = 'account' AND a.account_id"
                    + " = ANY (CAST(string_to_array(?" + accounts + ", ',') AS bigint[]))))";
        }
    }

    /** A download's row ({@code files}: the revision's files it takes, with sizes and LFS checksums). */
    record DownloadRow(
            long id,
            String publicId,
            long ownerId,
            String kind,
            String hub,
            String endpoint,
            String repository,
            String revision,
            String sha,
            List<String> include,
            List<String> exclude,
            String dedupKey,
            String credential,
            String name,
            String space,
            String path,
            String jobAccount,
            String visibility,
            Long accountId,
            List<HubDownloads.HubFile> files,
            long bytesTotal,
            String state,
            String reason,
            String message,
            List<String> warnings,
            String jobPublicId,
            String assetPublicId,
            Instant createdAt,
            Instant updatedAt,
            Instant finishedAt) {

        static final String COLUMNS = "a.id, a.public_id, a.owner_id, a.kind, a.hub, a.endpoint, a.repository,"
                + " a.revision, a.sha, CAST(a.include AS text), CAST(a.exclude AS text), a.dedup_key, a.credential,"
                + " a.name, a.space, a.path, a.job_account, a.visibility, a.account_id, CAST(a.files AS text),"
                + " a.bytes_total, a.state, a.reason, a.message, CAST(a.warnings AS text), a.job_public_id,"
                + " a.asset_public_id, a.created_at, a.updated_at, a.finished_at";

        static DownloadRow of(Object[] r) {
            return new DownloadRow(
                    Sql.longOf(r[0]),
                    (String) r[1],
                    Sql.longOf(r[2]),
                    (String) r[3],
                    (String) r[4],
                    (String) r[5],
                    (String) r[6],
                    (String) r[7],
                    (String) r[8],
                    read((String) r[9], STRINGS),
                    read((String) r[10], STRINGS),
                    (String) r[11],
                    (String) r[12],
                    (String) r[13],
                    (String) r[14],
                    (String) r[15],
                    (String) r[16],
                    (String) r[17],
                    r[18] == null ? null : Sql.longOf(r[18]),
                    read((String) r[19], FILES),
                    Sql.longOf(r[20]),
                    (String) r[21],
                    (String) r[22],
                    (String) r[23],
                    read((String) r[24], STRINGS),
                    (String) r[25],
                    (String) r[26],
                    Sql.instant(r[27]),
                    Sql.instant(r[28]),
                    r[29] == null ? null : Sql.instant(r[29]));
        }
    }

    Uni<Long> insert(DownloadRow d) {
        return Sql.insertReturningId(
                "INSERT INTO downloads (public_id, owner_id, kind, hub, endpoint, repository, revision, sha, include,"
                        + " exclude, dedup_key, credential, name, space, path, job_account, visibility, account_id,"
                        + " files, bytes_total, file_count, state, warnings, job_public_id)"
                        + " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, CAST(CAST(?9 AS text) AS jsonb),"
                        + " CAST(CAST(?10 AS text) AS jsonb), ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18,"
                        + " CAST(CAST(?19 AS text) AS jsonb), ?20, ?21, 'running', CAST(CAST(?22 AS text) AS jsonb), ?23)"
                        + " RETURNING id",
                d.publicId(),
                d.ownerId(),
                d.kind(),
                d.hub(),
                d.endpoint(),
                d.repository(),
                d.revision(),
                d.sha(),
                Json.write(d.include()),
                Json.write(d.exclude()),
                d.dedupKey(),
                d.credential(),
                d.name(),
                d.space(),
                d.path(),
                d.jobAccount(),
                d.visibility(),
                d.accountId(),
                Json.write(d.files()),
                d.bytesTotal(),
                d.files().size(),
                Json.write(d.warnings()),
                d.jobPublicId());
    }

    Uni<Void> run(long downloadId, long ownerId, String jobPublicId) {
        return Sql.update(
                        "INSERT INTO download_runs (download_id, job_public_id, owner_id) VALUES (?1, ?2, ?3)",
                        downloadId,
                        jobPublicId,
                        ownerId)
                .replaceWithVoid();
    }

    Uni<Optional<DownloadRow>> byPublicId(String publicId) {
        return Sql.row("SELECT " + DownloadRow.COLUMNS + " FROM downloads a WHERE a.public_id = ?1", publicId)
                .map(r -> r.map(DownloadRow::of));
    }

    /** What the viewer sees, newest first ({@code mine}: only their own). */
    Uni<List<DownloadRow>> list(Viewer viewer, boolean mine, int limit) {
        List<Object> params = new ArrayList<>();
        String where = mine ? "a.owner_id = ?1" : viewer.condition(params);
        if (mine) {
            params.add(viewer.userId());
        }
        params.add(limit);
        return Sql.rows(
                        "SELECT " + DownloadRow.COLUMNS + " FROM downloads a WHERE " + where + " ORDER BY a.id DESC"
                                + " LIMIT ?" + params.size(),
                        params.toArray())
                .map(rows -> rows.stream().map(DownloadRow::of).toList());
    }

    /**
     * Serialises the creates of one thing (its de-dup key) until the transaction ends, so that of two identical
     * requests at the same instant the second sees the first's row rather than starting another download.
     */
    Uni<Long> lockKey(String dedupKey) {
        return Sql.count(
                "SELECT count(*) FROM (SELECT pg_advisory_xact_lock(hashtext('crater.downloads'), hashtext(?1)))"
                        + " AS locked",
                dedupKey);
    }

    /** The download's state, its row locked until the transaction ends. */
    Uni<String> lockedState(long id) {
        return Sql.strings("SELECT state FROM downloads WHERE id = ?1 FOR UPDATE", id)
                .map(states -> states.isEmpty() ? "gone" : states.get(0));
    }

    /** The oldest download of the same thing the viewer sees that has not failed. */
    Uni<Optional<DownloadRow>> same(Viewer viewer, String dedupKey) {
        List<Object> params = new ArrayList<>(List.of(dedupKey));
        String visible = viewer.condition(params);
        return Sql.row(
                        "SELECT " + DownloadRow.COLUMNS + " FROM downloads a WHERE a.dedup_key = ?1 AND a.state <>"
                                + " 'failed' AND " + visible + " ORDER BY a.id LIMIT 1",
                        params.toArray())
                .map(r -> r.map(DownloadRow::of));
    }

    /** The owner's downloads running now, and the runs they started since {@code since}. */
    Uni<long[]> load(long ownerId, Instant since) {
        return Sql.count("SELECT count(*) FROM downloads WHERE owner_id = ?1 AND state = 'running'", ownerId)
                .flatMap(active -> Sql.count(
                                "SELECT count(*) FROM download_runs WHERE owner_id = ?1 AND started_at > ?2",
                                ownerId,
                                since)
                        .map(recent -> new long[] {active, recent}));
    }

    /** Every running download (the watch's round). */
    Uni<List<DownloadRow>> running() {
        return Sql.rows("SELECT " + DownloadRow.COLUMNS + " FROM downloads a WHERE a.state = 'running' ORDER BY a.id")
                .map(rows -> rows.stream().map(DownloadRow::of).toList());
    }

    /** A new run: the download running with this job, from this source. */
    Uni<Integer> restart(
            long id,
            String jobPublicId,
            String endpoint,
            String sha,
            List<HubDownloads.HubFile> files,
            String dedupKey,
            List<String> warnings) {
        return Sql.update(
                "UPDATE downloads SET state = 'running', reason = '', message = '', job_public_id = ?2, endpoint = ?3,"
                        + " sha = ?4, files = CAST(CAST(?5 AS text) AS jsonb), bytes_total = ?6, file_count = ?7,"
                        + " dedup_key = ?8, warnings = CAST(CAST(?9 AS text) AS jsonb), finished_at = NULL,"
                        + " updated_at = now() WHERE id = ?1",
                id,
                jobPublicId,
                endpoint,
                sha,
                Json.write(files),
                files.stream().mapToLong(HubDownloads.HubFile::size).sum(),
                files.size(),
                dedupKey,
                Json.write(warnings));
    }

    /** Ends or pauses a download; only while it is in state {@code from} (1 when it moved). */
    Uni<Integer> settle(
            long id,
            String from,
            String state,
            String reason,
            String message,
            List<String> warnings,
            String assetPublicId) {
        return Sql.update(
                "UPDATE downloads SET state = ?3, reason = ?4, message = ?5, warnings = CAST(CAST(?6 AS text) AS jsonb),"
                        + " asset_public_id = COALESCE(?7, asset_public_id), updated_at = now(),"
                        + " finished_at = CASE WHEN ?3 = 'paused' THEN NULL ELSE now() END"
                        + " WHERE id = ?1 AND state = ?2",
                id,
                from,
                state,
                reason,
                message,
                Json.write(warnings),
                assetPublicId);
    }
}
