package io.crater.account;

import io.crater.audit.AuditService;
import io.crater.identity.Caller;
import io.crater.platform.ApiException;
import io.crater.platform.Sql;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Map;

/**
 * Archiving a team account (platform admins): no job starts in it again, its unfinished jobs are stopped, and
 * its rows (members, quota, jobs, usage) stay for usage reports and the audit trail.
 */
@ApplicationScoped
public class AccountArchive {

    /** What an archive did: the account as it is now and how many jobs it stopped. */
    public record Archived(AccountViews.AccountDetail account, int jobsStopped) {}

    @Inject
    AccountService accounts;

    @Inject
    AuditService audit;

    @Inject
    AccountJobs jobs;

    @Inject
    Vertx vertx;

    public Uni<Archived> archive(String slug, Caller caller) {
        AccountService.requirePlatformAdmin(caller);
        return Panache.withTransaction(() -> accounts.bySlug(slug).flatMap(a -> {
                    if (a.personal()) {
                        throw new ApiException(
                                409,
                                "PersonalAccount",
                                "Conflict",
                                "a personal account belongs to its user and cannot be archived",
                                null,
                                null,
                                null);
                    }
                    if (a.archived()) {
                        throw new ApiException(
                                409,
                                "AccountArchived",
                                "Conflict",
                                "account '" + slug + "' was archived at " + a.archivedAt(),
                                null,
                                null,
                                null);
                    }
                    // From the commit on, submissions are refused (409 AccountArchived) and admission skips
                    // the account's jobs; those queued now are stopped in this transaction.
                    return Sql.update(
                                    "UPDATE accounts SET archived_at = now(), updated_at = now() WHERE id = ?1", a.id())
                            .flatMap(x ->
                                    jobs.stopAll(a.id(), slug, caller.user().username()))
                            .call(stopped -> audit.record(
                                    caller.actor(slug),
                                    "account.archive",
                                    "account",
                                    slug,
                                    Map.of("archived", false),
                                    Map.of("archived", true, "jobsStopped", stopped.jobs())));
                }))
                .call(stopped -> stopped.toRelease().isEmpty()
                        ? Uni.createFrom().voidItem()
                        : vertx.executeBlocking(Uni.createFrom().item(() -> {
                            jobs.release(stopped.toRelease());
                            return null;
                        })))
                .flatMap(stopped -> accounts.detail(slug, caller).map(d -> new Archived(d, stopped.jobs())));
    }
}
