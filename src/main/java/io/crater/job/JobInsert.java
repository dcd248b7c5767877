package io.crater.job;

import io.crater.audit.AuditService;
import io.crater.platform.Json;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The one statement that writes a submitted job: its row, its requests (the usage admission counts), its first
 * transition, its audit row and the wake-up of admission's leader on every replica. One statement commits whole, so a
 * job with nothing else to write needs no transaction around it. It answers the new job as a list shows it
 * ({@link JobSummaryRow}, its requests being the ones just written), so no read follows the commit.
 */
record JobInsert(String sql, Object[] params) {

    /** Where a job came from: the template version it was rendered from, the job it copies (each may be null). */
    record Origin(Long templateId, Integer templateVersion, Long sourceJobId) {}

    static JobInsert of(
            String publicId,
            long accountId,
            long userId,
            JobSpecs.Checked checked,
            String specJson,
            Origin origin,
            Idempotency idem,
            AuditService.Entry audit) {
        JobInputs.Spec s = checked.spec();
        List<String> resources =
                new ArrayList<>(checked.quotaRequest().amounts().keySet());
        List<Object> params = new ArrayList<>(Arrays.asList(
                publicId,
                accountId,
                userId,
                s.displayName(),
                s.kind().id(),
                s.kind().interactive(),
                specJson,
                checked.priority(),
                origin.templateId(),
                origin.templateVersion(),
                origin.sourceJobId(),
                s.timeLimit() == null ? null : s.timeLimit().toSeconds(),
                checked.backfill(),
                idem == null ? null : idem.key(),
                idem == null ? null : idem.hash()));
        String requests = "";
        if (!resources.isEmpty()) {
            // Resource names are DNS labels and quantities integers: a comma never occurs inside one.
            params.add(String.join(",", resources));
            params.add(String.join(
                    ",",
                    resources.stream()
                            .map(k -> Long.toString(
                                    checked.quotaRequest().amounts().get(k)))
                            .toList()));
            requests = ", r AS (INSERT INTO job_requests (job_id, resource, milli) SELECT j.id, x.resource, x.milli"
                    + " FROM j, unnest(string_to_array(?16, ','), CAST(string_to_array(?17, ',') AS bigint[]))"
                    + " AS x (resource, milli))";
        }
        String audited = ", " + audit.with("a", params.size() + 1);
        params.addAll(audit.params());
        params.add(Json.write(checked.quotaRequest().amounts()));
        String sql =
                "WITH j AS (INSERT INTO jobs (public_id, account_id, user_id, name, kind, interactive, state, spec,"
                        + " priority, template_id, template_version, source_job_id, time_limit_s, backfill, idempotency_key,"
                        + " request_hash) VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'Queued', CAST(CAST(?7 AS text) AS jsonb), ?8, ?9,"
                        + " ?10, ?11, ?12, ?13, ?14, ?15) RETURNING *)"
                        + requests
                        + ", t AS (INSERT INTO job_transitions (job_id, from_state, to_state, reason, message)"
                        + " SELECT j.id, '', 'Queued', 'Submitted', '' FROM j)"
                        + audited
                        + ", n AS (SELECT pg_notify('" + JobStates.ADMISSION_CHANNEL + "', ?1))"
                        + JobQueries.SUMMARY_COLUMNS_BEFORE_REQUESTS
                        + ", CAST(?" + params.size() + " AS text) FROM j, n";
        return new JobInsert(sql, params.toArray());
    }
}
