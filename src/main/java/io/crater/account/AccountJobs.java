package io.crater.account;

import io.smallrye.mutiny.Uni;
import java.util.List;

/**
 * What archiving an account needs from the jobs feature, which sits above this one: the jobs feature provides
 * the bean, so account never depends on job.
 */
public interface AccountJobs {

    /** How many jobs were stopped, and those whose Kubernetes objects must go after the commit. */
    record Stopped(int jobs, List<String> toRelease) {}

    /**
     * In the caller's transaction: stops every unfinished job of the account (queued ones end Stopped at once,
     * admitted and running ones move to Stopping) with the reason {@code AccountArchived}, naming the account and
     * the platform admin {@code by} who archived it.
     */
    Uni<Stopped> stopAll(long accountId, String slug, String by);

    /** Whether any job was ever submitted (for the first-run checklist). */
    Uni<Boolean> anySubmitted();

    /** After the commit: keeps what the jobs' pods wrote, then deletes their Volcano Jobs. Blocking. */
    void release(List<String> publicIds);
}
