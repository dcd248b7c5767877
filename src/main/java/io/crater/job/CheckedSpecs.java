package io.crater.job;

import io.crater.cluster.AcceleratorCatalogue;
import io.crater.platform.Json;
import io.crater.policy.AdmissionRound;
import io.crater.policy.DecisionMemo;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Stored specs, checked against the accelerator catalogue. A job's spec never changes after submission, so the
 * result is kept per job (up to {@value #CHECKED_CACHE} jobs) until the catalogue changes: admission rounds and
 * wait explanations read thousands of waiting jobs each time.
 */
@ApplicationScoped
public class CheckedSpecs {

    static final int CHECKED_CACHE = 50_000;

    @Inject
    AcceleratorCatalogue catalogue;

    @Inject
    JobsConfig config;

    private volatile List<?> checkedAgainst;
    private final Map<Long, JobSpecs.Checked> cache =
            Collections.synchronizedMap(new LinkedHashMap<>(1024, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<Long, JobSpecs.Checked> eldest) {
                    return size() > CHECKED_CACHE;
                }
            });

    /** The job's checked spec; null when it no longer passes the checks. */
    JobSpecs.Checked checked(JobRow job) {
        List<?> models = catalogue.models();
        if (models != checkedAgainst) {
            cache.clear();
            checkedAgainst = models;
        }
        JobSpecs.Checked cached = cache.get(job.id());
        if (cached != null) {
            return cached;
        }
        try {
            JobSpecs.Checked c = JobSpecs.check(
                            Json.read(job.specJson(), JobViews.SubmitJob.class), catalogue.models(), config)
                    .forAccount(job.accountId());
            cache.put(job.id(), c);
            return c;
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * The job as an admission round sees it. Jobs asking the same share one decision key from {@code keys}, so a
     * memo lookup compares them by identity, not field by field.
     */
    AdmissionRound.Job job(JobRow row, Instant submittedAt, Map<DecisionMemo.Key, DecisionMemo.Key> keys) {
        JobSpecs.Checked c = checked(row);
        String member = row.accountId() + "/" + row.userId();
        if (c == null) {
            return new AdmissionRound.Job(
                    row.publicId(),
                    row.id(),
                    row.accountId(),
                    member,
                    row.priority(),
                    submittedAt,
                    row.interactive(),
                    false,
                    null,
                    null,
                    null);
        }
        DecisionMemo.Key key = new DecisionMemo.Key(
                row.accountId(), member, c.quotaRequest(), row.interactive(), c.backfill(), c.pods());
        return new AdmissionRound.Job(
                row.publicId(),
                row.id(),
                row.accountId(),
                member,
                row.priority(),
                submittedAt,
                row.interactive(),
                c.backfill(),
                c.quotaRequest(),
                c.pods(),
                keys == null ? key : keys.computeIfAbsent(key, k -> k));
    }
}
