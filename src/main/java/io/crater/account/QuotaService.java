package io.crater.account;

import io.crater.account.AccountViews.Limits;
import io.crater.account.AccountViews.QuotaItem;
import io.crater.account.AccountViews.QuotaLineView;
import io.crater.account.QuotaRows.Limit;
import io.crater.account.QuotaRows.MemberLimit;
import io.crater.audit.AuditService;
import io.crater.cluster.AcceleratorCatalogue;
import io.crater.cluster.AcceleratorModel;
import io.crater.identity.Caller;
import io.crater.identity.GovernanceConfig;
import io.crater.platform.ApiException;
import io.crater.platform.Problem;
import io.crater.platform.Sql;
import io.crater.policy.Amounts;
import io.crater.policy.Grant;
import io.crater.policy.MemberLimits;
import io.crater.policy.Quantities;
import io.crater.policy.QuotaLimit;
import io.crater.policy.QuotaLine;
import io.crater.policy.QuotaMath;
import io.crater.policy.Resources;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Quotas per account and resource, active grants, usage derived from job states, and member limits. The
 * arithmetic is {@link QuotaMath}'s; this class reads the snapshot and writes changes with their audit record.
 */
@ApplicationScoped
public class QuotaService {

    /** Job states whose requests count as usage. */
    public static final List<String> ACTIVE_STATES = List.of("Admitted", "Pending", "Running", "Stopping");

    @Inject
    QuotaGrants grantsInForce;

    @Inject
    QuotaUsage usage;

    @Inject
    QuotaCaches cached;

    @Inject
    AcceleratorCatalogue catalogue;

    @Inject
    GovernanceConfig config;

    @Inject
    AuditService audit;

    @Inject
    AccountService accounts;

    @Inject
    Event<AccountService.QuotaChanged> changed;

    @Inject
    Clock clock;

    /** The resources a quota may name: cpu, memory and every model of the catalogue. */
    public Set<String> resourceKeys() {
        Set<String> keys = new java.util.LinkedHashSet<>(List.of("cpu", "memory"));
        catalogue.models().forEach(m -> keys.add(m.key()));
        return keys;
    }

    String displayName(String resource) {
        return switch (resource) {
            case "cpu" -> "CPU";
            case "memory" -> "Memory";
            default ->
                catalogue.models().stream()
                        .filter(m -> m.key().equals(resource))
                        .map(AcceleratorModel::displayName)
                        .findFirst()
                        .orElse(resource);
        };
    }

    /** The account's quota per resource, from memory until {@code quotas} changes (the database inside a transaction). */
    Uni<Map<String, QuotaLimit>> limits(long accountId) {
        return cached.limits(accountId);
    }

    /** Approved quota grants of the account that have not ended. */
    public Uni<List<Grant>> grants(long accountId) {
        return grantsInForce
                .inForce(accountId, clock.instant())
                .map(found -> found.stream().map(QuotaGrants.Granted::grant).toList());
    }

    /** Summed requests of the account's jobs in active states, per resource (backfill jobs are outside quota). */
    public Uni<Resources> usage(long accountId) {
        return usage.held(accountId).map(held -> new Resources(perAccount(held).getOrDefault(accountId, Map.of())));
    }

    /** The held amounts summed per account and resource. */
    private static Map<Long, Map<String, Long>> perAccount(List<QuotaUsage.Held> held) {
        Map<Long, Map<String, Long>> out = new java.util.HashMap<>();
        held.forEach(h ->
                out.computeIfAbsent(h.accountId(), a -> new TreeMap<>()).merge(h.resource(), h.milli(), Long::sum));
        return out;
    }

    /** Where the account stands per resource: quota, grants, usage, borrowing. */
    public Uni<Map<String, QuotaLine>> snapshot(long accountId) {
        return limits(accountId)
                .flatMap(l -> grants(accountId)
                        .flatMap(g -> usage(accountId).map(u -> QuotaMath.lines(l, g, u, clock.instant()))));
    }

    /**
     * {@link #snapshot} of every account with a quota, a grant or usage, in three queries however many accounts
     * there are: an admission round reads them all at once. An account missing from the map has
     * {@link #emptyLines()}.
     */
    public Uni<Map<Long, Map<String, QuotaLine>>> snapshots() {
        Instant now = clock.instant();
        return Sql.rows("SELECT " + Limit.COLUMNS + " FROM quotas")
                .flatMap(limits -> grantsInForce
                        .inForce(null, now)
                        .flatMap(grants -> usage.held(null).map(held -> {
                            Map<Long, Map<String, QuotaLimit>> l = new java.util.HashMap<>();
                            limits.stream()
                                    .map(Limit::of)
                                    .forEach(q -> l.computeIfAbsent(q.accountId(), a -> new TreeMap<>())
                                            .put(q.resource(), q.limit()));
                            Map<Long, List<Grant>> g = new java.util.HashMap<>();
                            grants.forEach(q -> g.computeIfAbsent(q.accountId(), a -> new ArrayList<>())
                                    .add(q.grant()));
                            Map<Long, Map<String, Long>> u = perAccount(held);
                            Set<Long> ids = new HashSet<>(l.keySet());
                            ids.addAll(g.keySet());
                            ids.addAll(u.keySet());
                            Map<Long, Map<String, QuotaLine>> out = new java.util.HashMap<>();
                            for (long id : ids) {
                                out.put(
                                        id,
                                        QuotaMath.lines(
                                                l.getOrDefault(id, Map.of()),
                                                g.getOrDefault(id, List.of()),
                                                new Resources(u.getOrDefault(id, Map.of())),
                                                now));
                            }
                            return out;
                        })));
    }

    /** The lines of an account without quota, grant or usage. */
    public Map<String, QuotaLine> emptyLines() {
        return QuotaMath.lines(Map.of(), List.of(), Resources.NONE, clock.instant());
    }

    /** Every member's usage ({@code account/user} keys): jobs holding quota, and of those the interactive ones. */
    public Uni<Map<String, QuotaMath.MemberUsage>> memberUsages() {
        return usage.held(null)
                .flatMap(held -> usage.counts().map(counts -> {
                    Map<String, Map<String, Long>> resources = new java.util.HashMap<>();
                    held.forEach(h -> resources
                            .computeIfAbsent(h.accountId() + "/" + h.userId(), k -> new java.util.HashMap<>())
                            .put(h.resource(), h.milli()));
                    Map<String, QuotaMath.MemberUsage> out = new java.util.HashMap<>();
                    counts.forEach(c -> {
                        String member = c.accountId() + "/" + c.userId();
                        out.put(
                                member,
                                new QuotaMath.MemberUsage(
                                        new Resources(resources.getOrDefault(member, Map.of())),
                                        c.jobs(),
                                        c.interactive()));
                    });
                    return out;
                }));
    }

    /** Every account's default member limits and every member's override, read in one query. */
    public record LimitBook(Map<Long, MemberLimits> defaults, Map<String, MemberLimits> overrides) {
        /** What {@link #effectiveLimits} answers for the member. */
        public MemberLimits effective(long accountId, long userId) {
            return MemberLimits.effective(
                    defaults.getOrDefault(accountId, MemberLimits.NONE),
                    overrides.getOrDefault(accountId + "/" + userId, MemberLimits.NONE));
        }
    }

    /** {@link #effectiveLimits} of every member at once. */
    public Uni<LimitBook> limitBook() {
        return Sql.rows("SELECT " + MemberLimit.COLUMNS
                        + " FROM member_limits m LEFT JOIN member_limit_resources r ON r.limit_id = m.id ORDER BY m.id")
                .map(rows -> {
                    record Stored(MemberLimit row, Map<String, Long> resources) {}
                    Map<Long, Stored> byId = new LinkedHashMap<>();
                    for (MemberLimit r : rows.stream().map(MemberLimit::of).toList()) {
                        Stored st = byId.computeIfAbsent(r.id(), id -> new Stored(r, new TreeMap<>()));
                        if (r.resource() != null) {
                            st.resources().put(r.resource(), r.maxMilli());
                        }
                    }
                    Map<Long, MemberLimits> defaults = new java.util.HashMap<>();
                    Map<String, MemberLimits> overrides = new java.util.HashMap<>();
                    for (Stored st : byId.values()) {
                        MemberLimit r = st.row();
                        MemberLimits limits =
                                new MemberLimits(st.resources(), r.maxRunningJobs(), r.maxInteractiveSessions());
                        if (r.userId() == null) {
                            defaults.putIfAbsent(r.accountId(), limits);
                        } else {
                            overrides.putIfAbsent(r.accountId() + "/" + r.userId(), limits);
                        }
                    }
                    return new LimitBook(defaults, overrides);
                });
    }

    Uni<List<QuotaLineView>> lines(long accountId) {
        return snapshot(accountId)
                .map(lines -> lines.values().stream().map(this::view).toList());
    }

    private QuotaLineView view(QuotaLine l) {
        return new QuotaLineView(
                l.resource(),
                displayName(l.resource()),
                Quantities.format(l.guaranteed()),
                Quantities.format(l.max()),
                Quantities.format(l.used()),
                Quantities.format(l.granted()),
                Quantities.format(l.borrowed()),
                l.guaranteed(),
                l.max(),
                l.used(),
                l.granted(),
                l.borrowed());
    }

    /** Replaces the account's quota (platform admins). Lowering it never stops running jobs: they become borrowing. */
    public Uni<AccountViews.AccountDetail> put(String slug, AccountViews.QuotaUpdate req, Caller caller) {
        AccountService.requirePlatformAdmin(caller);
        Map<String, QuotaLimit> wanted = validate(req);
        return Panache.withTransaction(() -> accounts.bySlug(slug)
                        .flatMap(a -> limits(a.id())
                                .invoke(before -> refuseRaisingRetired(before, wanted))
                                .flatMap(before -> Sql.update("DELETE FROM quotas WHERE account_id = ?1", a.id())
                                        .flatMap(x -> insertAll(a.id(), wanted))
                                        .flatMap(x -> audit.record(
                                                caller.actor(slug),
                                                "quota.update",
                                                "account",
                                                slug,
                                                summary(before),
                                                summary(wanted))))))
                .invoke(() -> changed.fireAsync(new AccountService.QuotaChanged(slug)))
                .flatMap(v -> accounts.detail(slug, caller));
    }

    /** A retired model takes no new quota: its lines may stay or shrink, never grow. */
    private void refuseRaisingRetired(Map<String, QuotaLimit> before, Map<String, QuotaLimit> wanted) {
        List<Problem.FieldError> errors = new ArrayList<>();
        wanted.values().forEach(q -> {
            QuotaLimit was = before.getOrDefault(q.resource(), new QuotaLimit(q.resource(), 0, 0));
            boolean retired =
                    catalogue.model(q.resource()).filter(m -> m.retired()).isPresent();
            if (retired && (q.max() > was.max() || q.guaranteed() > was.guaranteed())) {
                errors.add(new Problem.FieldError(
                        "resources." + q.resource(), "ModelRetired: a retired model's quota may only stay or shrink"));
            }
        });
        if (!errors.isEmpty()) {
            throw ApiException.badRequest("ModelRetired", "retired models take no new quota", errors);
        }
    }

    private Uni<Void> insertAll(long accountId, Map<String, QuotaLimit> wanted) {
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (QuotaLimit q : wanted.values()) {
            chain = chain.flatMap(v -> Sql.update(
                            "INSERT INTO quotas (account_id, resource, guaranteed_milli, max_milli) VALUES (?1, ?2, ?3, ?4)",
                            accountId,
                            q.resource(),
                            q.guaranteed(),
                            q.max())
                    .replaceWithVoid());
        }
        return chain;
    }

    private Map<String, QuotaLimit> validate(AccountViews.QuotaUpdate req) {
        if (req == null || req.items() == null) {
            throw ApiException.badRequest(
                    "InvalidRequest", "items is required", List.of(new Problem.FieldError("items", "required")));
        }
        List<Problem.FieldError> errors = new ArrayList<>();
        Map<String, QuotaLimit> out = new LinkedHashMap<>();
        Set<String> known = resourceKeys();
        for (int i = 0; i < req.items().size(); i++) {
            QuotaItem item = req.items().get(i);
            String at = "items[" + i + "]";
            if (item == null || item.resource() == null || !known.contains(item.resource())) {
                errors.add(new Problem.FieldError(
                        at + ".resource", "unknown resource; known: " + String.join(", ", known)));
                continue;
            }
            if (out.containsKey(item.resource())) {
                errors.add(new Problem.FieldError(at + ".resource", "listed twice"));
                continue;
            }
            Amounts.Kind kind = Amounts.Kind.of(item.resource());
            Long g = amount(kind, item.guaranteed(), at + ".guaranteed", errors);
            Long m = amount(kind, item.max(), at + ".max", errors);
            if (g != null && m != null) {
                if (m < g) {
                    errors.add(new Problem.FieldError(at + ".max", "must be at least guaranteed"));
                } else {
                    out.put(item.resource(), new QuotaLimit(item.resource(), g, m));
                }
            }
        }
        if (!errors.isEmpty()) {
            throw ApiException.badRequest("InvalidQuota", "the quota cannot be set as given", errors);
        }
        return out;
    }

    /** A non-negative amount of the kind in milli-units within its limit, or null with an error recorded. */
    static Long amount(Amounts.Kind kind, String quantity, String field, List<Problem.FieldError> errors) {
        Amounts.Checked c = Amounts.check(kind, quantity);
        if (!c.ok()) {
            errors.add(new Problem.FieldError(field, c.problem()));
            return null;
        }
        return c.milli();
    }

    private static Map<String, String> summary(Map<String, QuotaLimit> q) {
        Map<String, String> m = new TreeMap<>();
        q.values()
                .forEach(
                        l -> m.put(l.resource(), Quantities.format(l.guaranteed()) + "/" + Quantities.format(l.max())));
        return m;
    }

    /** Gives a new personal account the configured default quota (guaranteed = max). */
    Uni<Void> setPersonalDefaults(long accountId) {
        Map<String, QuotaLimit> q = new LinkedHashMap<>();
        for (String pair : config.personalQuota().split(",")) {
            if (pair.isBlank()) {
                continue;
            }
            String[] kv = pair.trim().split("=", 2);
            long v = Quantities.toMilli(kv[1].trim());
            q.put(kv[0].trim(), new QuotaLimit(kv[0].trim(), v, v));
        }
        return insertAll(accountId, q);
    }

    // ---- member limits ----

    Uni<MemberLimits> storedLimits(long accountId, Long userId) {
        return QuotaCaches.readStored(accountId, userId);
    }

    /**
     * The limits in effect for a member: the account default with the member's override on top (from memory until
     * {@code member_limits} or {@code member_limit_resources} change; the database inside a transaction).
     */
    public Uni<MemberLimits> effectiveLimits(long accountId, long userId) {
        return cached.effectiveLimits(accountId, userId);
    }

    Uni<Void> storeLimits(long accountId, Long userId, MemberLimits limits) {
        String del = userId == null
                ? "DELETE FROM member_limits WHERE account_id = ?1 AND user_id IS NULL"
                : "DELETE FROM member_limits WHERE account_id = ?1 AND user_id = ?2";
        Object[] delParams = userId == null ? new Object[] {accountId} : new Object[] {accountId, userId};
        return Sql.update(del, delParams)
                .flatMap(x -> {
                    StringBuilder sql = new StringBuilder(
                            "INSERT INTO member_limits (account_id, user_id, max_running_jobs, max_interactive_sessions) VALUES (?1, ");
                    List<Object> params = new ArrayList<>(List.of(accountId));
                    sql.append(userId == null ? "NULL" : param(params, userId)).append(", ");
                    sql.append(limits.maxRunningJobs() == null ? "NULL" : param(params, limits.maxRunningJobs()))
                            .append(", ");
                    sql.append(
                                    limits.maxInteractiveSessions() == null
                                            ? "NULL"
                                            : param(params, limits.maxInteractiveSessions()))
                            .append(") RETURNING id");
                    return Sql.insertReturningId(sql.toString(), params.toArray());
                })
                .flatMap(id -> {
                    Uni<Void> chain = Uni.createFrom().voidItem();
                    for (Map.Entry<String, Long> e : limits.resources().entrySet()) {
                        chain = chain.flatMap(v -> Sql.update(
                                        "INSERT INTO member_limit_resources (limit_id, resource, max_milli) VALUES (?1, ?2, ?3)",
                                        id,
                                        e.getKey(),
                                        e.getValue())
                                .replaceWithVoid());
                    }
                    return chain;
                });
    }

    private static String param(List<Object> params, Object value) {
        params.add(value);
        return "?" + params.size();
    }

    /** Checks a limits body and turns it into milli-units. */
    MemberLimits parseLimits(Limits req) {
        if (req == null) {
            throw ApiException.badRequest("InvalidRequest", "a limits body is required", null);
        }
        List<Problem.FieldError> errors = new ArrayList<>();
        Map<String, Long> res = new TreeMap<>();
        Set<String> known = new HashSet<>(resourceKeys());
        if (req.resources() != null) {
            req.resources().forEach((k, v) -> {
                if (!known.contains(k)) {
                    errors.add(new Problem.FieldError("resources." + k, "unknown resource"));
                } else {
                    Long milli = amount(Amounts.Kind.of(k), v, "resources." + k, errors);
                    if (milli != null) {
                        res.put(k, milli);
                    }
                }
            });
        }
        if (req.maxRunningJobs() != null && req.maxRunningJobs() < 0) {
            errors.add(new Problem.FieldError("maxRunningJobs", "must not be negative"));
        }
        if (req.maxInteractiveSessions() != null && req.maxInteractiveSessions() < 0) {
            errors.add(new Problem.FieldError("maxInteractiveSessions", "must not be negative"));
        }
        if (!errors.isEmpty()) {
            throw ApiException.badRequest("InvalidLimits", "the limits cannot be set as given", errors);
        }
        return new MemberLimits(res, req.maxRunningJobs(), req.maxInteractiveSessions());
    }

    static Limits view(MemberLimits l) {
        Map<String, String> res = new TreeMap<>();
        l.resources().forEach((k, v) -> res.put(k, Quantities.format(v)));
        return new Limits(res, l.maxRunningJobs(), l.maxInteractiveSessions());
    }

    Instant now() {
        return clock.instant();
    }
}
