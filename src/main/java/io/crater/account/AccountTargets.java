package io.crater.account;

import io.crater.identity.Caller;
import io.crater.identity.UserDirectory;
import io.crater.platform.CacheInvalidations;
import io.crater.platform.NotifiedCache;
import io.crater.platform.Sql;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;

/**
 * What jobs read and write of an account, so that their SQL never names the accounts' tables: where a submission
 * goes, with the account's own time limits (null: the platform's) and the caller's role, and the time limits a
 * platform admin sets. Every method runs in the caller's session (or transaction). A submission's target is kept in
 * memory per account and caller until a write to {@code accounts} or {@code account_members} (anywhere) invalidates
 * it ({@link NotifiedCache}).
 */
@ApplicationScoped
public class AccountTargets {

    @Inject
    AccountService accounts;

    @Inject
    UserDirectory users;

    @Inject
    CacheInvalidations caches;

    /** The account (by slug, where the caller must be a member; else by id) and the caller a target is read for. */
    record TargetKey(String slug, long accountId, long userId) {}

    private NotifiedCache<TargetKey, Optional<Target>> targets;

    @PostConstruct
    void init() {
        targets = caches.cache("account-targets", Set.of("accounts", "account_members"), 10_000, this::read);
    }

    /** An account as a job sees it, with the caller's role in it (null: not a member). */
    public record Target(
            long id,
            String slug,
            String kind,
            Instant expiresAt,
            Duration interactiveDefault,
            Duration interactiveMax,
            Duration batchDefault,
            Duration batchMax,
            String role,
            Instant archivedAt,
            String featuresJson,
            String ingressBandwidth,
            String egressBandwidth) {
        static final String COLUMNS = "a.id, a.slug, a.kind, a.expires_at, a.interactive_default_limit_s,"
                + " a.interactive_max_limit_s, a.batch_default_limit_s, a.batch_max_limit_s,"
                + " (SELECT role FROM account_members x WHERE x.account_id = a.id AND x.user_id = ?1), a.archived_at,"
                + " CAST(a.features AS text), a.ingress_bandwidth, a.egress_bandwidth";

        static Target of(Object[] r) {
            return new Target(
                    Sql.longOf(r[0]),
                    (String) r[1],
                    (String) r[2],
                    Sql.instant(r[3]),
                    seconds(r[4]),
                    seconds(r[5]),
                    seconds(r[6]),
                    seconds(r[7]),
                    (String) r[8],
                    Sql.instant(r[9]),
                    (String) r[10],
                    (String) r[11],
                    (String) r[12]);
        }

        private static Duration seconds(Object o) {
            return o == null ? null : Duration.ofSeconds(Sql.longOf(o));
        }
    }

    /**
     * The account a submission goes to: the one named by its slug when the user is a member of it, else (no slug)
     * the user's default account; empty when there is none.
     */
    public Uni<Optional<Target>> forSubmission(String slug, long userId) {
        if (slug != null && !slug.isBlank()) {
            return targets.get(new TargetKey(slug.trim(), 0, userId));
        }
        return users.defaultAccountId(userId)
                .flatMap(id -> id.isEmpty()
                        ? Uni.createFrom().item(Optional.<Target>empty())
                        : targets.get(new TargetKey(null, id.get(), userId)));
    }

    private Uni<Optional<Target>> read(TargetKey key) {
        if (key.slug() != null) {
            return Sql.row(
                            "SELECT " + Target.COLUMNS
                                    + " FROM accounts a JOIN account_members m ON m.account_id = a.id"
                                    + " WHERE m.user_id = ?1 AND a.slug = ?2",
                            key.userId(),
                            key.slug())
                    .map(r -> r.map(Target::of));
        }
        return Sql.row("SELECT " + Target.COLUMNS + " FROM accounts a WHERE a.id = ?2", key.userId(), key.accountId())
                .map(r -> r.map(Target::of));
    }

    /** The account with its time limits, if the caller is a member or a platform admin (404/403 otherwise). */
    public Uni<Target> visible(String slug, Caller caller) {
        return accounts.visible(slug, caller)
                .flatMap(a -> Sql.row(
                                "SELECT " + Target.COLUMNS + " FROM accounts a WHERE a.id = ?2",
                                caller.userId(),
                                a.id())
                        .map(r -> Target.of(r.orElseThrow())));
    }

    /** Stores the account's own time limits in seconds (null: the platform's). */
    public Uni<Void> setTimeLimits(
            long accountId, Long interactiveDefault, Long interactiveMax, Long batchDefault, Long batchMax) {
        return Sql.update(
                        "UPDATE accounts SET interactive_default_limit_s = ?2, interactive_max_limit_s = ?3,"
                                + " batch_default_limit_s = ?4, batch_max_limit_s = ?5, updated_at = now() WHERE id = ?1",
                        accountId,
                        interactiveDefault,
                        interactiveMax,
                        batchDefault,
                        batchMax)
                .replaceWithVoid();
    }

    /** The account with this id as jobs see it (no caller: {@code role} null), in the caller's session. */
    public Uni<Target> byId(long accountId) {
        return Sql.row("SELECT " + Target.COLUMNS + " FROM accounts a WHERE a.id = ?2", 0L, accountId)
                .map(r -> Target.of(r.orElseThrow(() -> new IllegalStateException("no account " + accountId))));
    }

    /**
     * Stores what the account's members may use ({@code featuresJson}: its own switches as a JSON object, null: the
     * platform's default) and its pods' bandwidth caps (null: the platform's).
     */
    public Uni<Void> setFeatures(long accountId, String featuresJson, String ingress, String egress) {
        return Sql.update(
                        "UPDATE accounts SET features = CAST(CAST(?2 AS text) AS jsonb), ingress_bandwidth = ?3,"
                                + " egress_bandwidth = ?4, updated_at = now() WHERE id = ?1",
                        accountId,
                        featuresJson,
                        ingress,
                        egress)
                .replaceWithVoid();
    }
}
