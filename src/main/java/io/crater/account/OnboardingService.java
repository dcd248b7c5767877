package io.crater.account;

import io.crater.identity.Caller;
import io.crater.identity.UserService;
import io.crater.platform.Sql;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;

/**
 * The platform admin's first-run checklist, each step read from what is really there (never from the browser):
 * their own password changed, a team account with a quota, someone who is not a platform admin in a team
 * account, a job submitted.
 */
@ApplicationScoped
public class OnboardingService {

    /** One step of the checklist and whether it is done. */
    public record Step(String key, boolean done) {}

    /**
     * The steps in order; {@code account} is the team account the next steps are about (the newest with a quota,
     * else the newest), null when there is none.
     */
    public record Checklist(List<Step> steps, boolean complete, String account) {}

    static final String ACCOUNTS = "SELECT"
            + " EXISTS (SELECT 1 FROM quotas q JOIN accounts a ON a.id = q.account_id"
            + "   WHERE a.kind = 'team' AND a.archived_at IS NULL AND q.max_milli > 0),"
            + " (SELECT a.slug FROM accounts a WHERE a.kind = 'team' AND a.archived_at IS NULL"
            + "   ORDER BY EXISTS (SELECT 1 FROM quotas q WHERE q.account_id = a.id AND q.max_milli > 0) DESC,"
            + "   a.id DESC LIMIT 1)";

    @Inject
    UserService users;

    @Inject
    AccountJobs jobs;

    public Uni<Checklist> checklist(Caller caller) {
        AccountService.requirePlatformAdmin(caller);
        return Panache.withSession(() -> users.passwordChanged(caller.userId())
                .flatMap(password -> Sql.row(ACCOUNTS)
                        .flatMap(accounts -> users.adminIds()
                                .flatMap(this::peopleAdded)
                                .flatMap(people -> jobs.anySubmitted().map(job -> {
                                    Object[] a = accounts.orElseThrow();
                                    List<Step> steps = List.of(
                                            new Step("password", password),
                                            new Step("account", Boolean.TRUE.equals(a[0])),
                                            new Step("people", people),
                                            new Step("job", job));
                                    return new Checklist(steps, steps.stream().allMatch(Step::done), (String) a[1]);
                                })))));
    }

    /** Someone who is not a platform admin is a member of a team account. */
    private Uni<Boolean> peopleAdded(List<Long> admins) {
        String notAdmin = admins.isEmpty()
                ? ""
                : " AND m.user_id NOT IN ("
                        + String.join(",", admins.stream().map(String::valueOf).toList()) + ")";
        return Sql.row("SELECT EXISTS (SELECT 1 FROM account_members m JOIN accounts a ON a.id = m.account_id"
                        + " WHERE a.kind = 'team'" + notAdmin + ")")
                .map(r -> r.map(x -> Boolean.TRUE.equals(x[0])).orElse(false));
    }
}
