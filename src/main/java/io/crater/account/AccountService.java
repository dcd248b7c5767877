package io.crater.account;

import io.crater.account.AccountViews.AccountSummary;
import io.crater.account.AccountViews.CreateAccount;
import io.crater.account.AccountViews.UpdateAccount;
import io.crater.audit.AuditService;
import io.crater.identity.Caller;
import io.crater.platform.Actor;
import io.crater.platform.ApiException;
import io.crater.platform.Page;
import io.crater.platform.Problem;
import io.crater.platform.Sql;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/** Accounts (a lab, a course, a team, or a user's personal account) and who may do what in them. */
@ApplicationScoped
public class AccountService implements io.crater.identity.UserCreated {

    /** Fired after a change that affects Volcano Queues has committed. */
    public record QuotaChanged(String account) {}

    static final Pattern SLUG = Pattern.compile("^[a-z0-9]([-a-z0-9]{0,48}[a-z0-9])?$");

    @Inject
    MemberAccounts members;

    @Inject
    AuditService audit;

    @Inject
    QuotaService quotas;

    @Inject
    Event<QuotaChanged> changed;

    @Inject
    Clock clock;

    @Inject
    io.crater.identity.UserDirectory users;

    @Inject
    Memberships memberships;

    /** The account, or 404. */
    Uni<AccountRow> bySlug(String slug) {
        return Sql.row("SELECT " + AccountRow.COLUMNS + " FROM accounts a WHERE a.slug = ?1", slug)
                .map(r -> r.map(AccountRow::of).orElseThrow(() -> ApiException.notFound("no account '" + slug + "'")));
    }

    /** The user's role in the account, if a member, in the caller's session. */
    public Uni<Optional<String>> roleOf(long accountId, long userId) {
        return Sql.rows(
                        "SELECT role, file_access FROM account_members WHERE account_id = ?1 AND user_id = ?2",
                        accountId,
                        userId)
                .map(r -> r.isEmpty() ? Optional.empty() : Optional.of((String) r.get(0)[0]));
    }

    /** The account if the caller is a member or a platform admin; 403 otherwise. */
    Uni<AccountRow> visible(String slug, Caller caller) {
        return bySlug(slug)
                .flatMap(a -> caller.platformAdmin()
                        ? Uni.createFrom().item(a)
                        : roleOf(a.id(), caller.userId()).map(role -> {
                            if (role.isEmpty()) {
                                throw ApiException.forbidden(
                                        "NotAMember", "you are not a member of account '" + slug + "'");
                            }
                            return a;
                        }));
    }

    /** An account as another feature sees the caller's access to it. */
    public record Access(long id, String slug, String name, String role, boolean platformAdmin) {
        /** Whether the caller may see everything of the account (its admin or a platform admin). */
        public boolean admin() {
            return platformAdmin || "admin".equals(role);
        }
    }

    /** The slugs of accounts by id (unknown ids are left out), in the caller's session. */
    public Uni<java.util.Map<Long, String>> slugs(java.util.Collection<Long> ids) {
        return memberships.slugs(ids);
    }

    /**
     * What a member's job needs of its account: slug, kind, GID and whether the member's file access is read-only
     * (someone no longer a member reads and writes as before), in the caller's session.
     */
    public record JobAccount(String slug, String kind, int gid, boolean readOnly) {
        static JobAccount of(Object[] r) {
            return new JobAccount((String) r[0], (String) r[1], ((Number) r[2]).intValue(), "ro".equals(r[3]));
        }
    }

    /** {@link JobAccount} of the member's account. */
    public Uni<JobAccount> jobAccount(long accountId, long userId) {
        return Sql.row(
                        "SELECT a.slug, a.kind, a.gid, COALESCE(m.file_access, 'rw') FROM accounts a"
                                + " LEFT JOIN account_members m ON m.account_id = a.id AND m.user_id = ?2 WHERE a.id = ?1",
                        accountId,
                        userId)
                .map(r -> JobAccount.of(r.orElseThrow(() -> ApiException.notFound("no account " + accountId))));
    }

    /** The id of the account with this slug if the user is one of its members, in the caller's session. */
    public Uni<Optional<Long>> memberAccountId(String slug, long userId) {
        return Sql.longs(
                        "SELECT a.id FROM account_members m JOIN accounts a ON a.id = m.account_id"
                                + " WHERE a.slug = ?1 AND m.user_id = ?2",
                        slug,
                        userId)
                .map(ids -> ids.stream().findFirst());
    }

    /** Whether the user is a member of the account with this slug (false when there is none), in the caller's session. */
    public Uni<Boolean> isMember(String slug, long userId) {
        return memberAccountId(slug, userId).map(Optional::isPresent);
    }

    /**
     * The ids of the accounts whose jobs the caller may list, in ascending order: null for a platform admin without
     * an account named (all), else the caller's memberships narrowed to the one named (a non-member naming an
     * account gets 403; a platform admin naming one that does not exist, none), in the caller's session.
     */
    public Uni<List<Long>> listable(Caller caller, String slug) {
        boolean one = slug != null && !slug.isBlank();
        if (caller.platformAdmin()) {
            return one
                    ? Sql.longs("SELECT id FROM accounts WHERE slug = ?1", slug.trim())
                    : Uni.createFrom().nullItem();
        }
        return members.of(caller.userId()).map(memberships -> {
            List<Long> ids = memberships.stream()
                    .filter(m -> !one || m.slug().equals(slug.trim()))
                    .map(MemberAccounts.Membership::accountId)
                    .toList();
            if (one && ids.isEmpty()) {
                throw ApiException.forbidden("NotAMember", "you are not a member of account '" + slug + "'");
            }
            return ids;
        });
    }

    /** The ids of the accounts the user administers, in the caller's session. */
    public Uni<List<Long>> administeredIds(long userId) {
        return Sql.longs("SELECT account_id FROM account_members WHERE user_id = ?1 AND role = 'admin'", userId);
    }

    /**
     * An account as its file space needs it: GID, and the user's file access ({@code rw}, {@code ro}, null when not
     * a member).
     */
    public record SpaceAccount(long id, String slug, int gid, String fileAccess) {
        static SpaceAccount of(Object[] r) {
            return new SpaceAccount(Sql.longOf(r[0]), (String) r[1], ((Number) r[2]).intValue(), (String) r[3]);
        }
    }

    /** {@link SpaceAccount} of the account with this slug, if there is one, in the caller's session. */
    public Uni<java.util.Optional<SpaceAccount>> spaceAccount(String slug, long userId) {
        return Sql.row(
                        "SELECT a.id, a.slug, a.gid, m.file_access FROM accounts a"
                                + " LEFT JOIN account_members m ON m.account_id = a.id AND m.user_id = ?2 WHERE a.slug = ?1",
                        slug,
                        userId)
                .map(r -> r.map(SpaceAccount::of));
    }

    /** The ids of the accounts the user is a member of, in the caller's session. */
    public Uni<List<Long>> accountIdsOf(long userId) {
        return Sql.longs("SELECT account_id FROM account_members WHERE user_id = ?1", userId);
    }

    /** The ids of an account's members (only its admins when {@code adminsOnly}), in the caller's session. */
    public Uni<List<Long>> memberIds(long accountId, boolean adminsOnly) {
        return Sql.longs(
                "SELECT user_id FROM account_members WHERE account_id = ?1" + (adminsOnly ? " AND role = 'admin'" : "")
                        + " ORDER BY user_id",
                accountId);
    }

    /** An account's id and slug. */
    record IdSlug(long id, String slug) {
        static IdSlug of(Object[] r) {
            return new IdSlug(Sql.longOf(r[0]), (String) r[1]);
        }
    }

    /** The caller's access to an account they are a member of (or any, for a platform admin); 404/403 otherwise. */
    public Uni<Access> access(String slug, Caller caller) {
        return visible(slug, caller)
                .flatMap(a -> roleOf(a.id(), caller.userId())
                        .map(role ->
                                new Access(a.id(), a.slug(), a.name(), role.orElse(null), caller.platformAdmin())));
    }

    /** The account if the caller administers it (account admin or platform admin); 403 otherwise. */
    Uni<AccountRow> administered(String slug, Caller caller) {
        return bySlug(slug)
                .flatMap(a -> caller.platformAdmin()
                        ? Uni.createFrom().item(a)
                        : roleOf(a.id(), caller.userId()).map(role -> {
                            if (!role.map("admin"::equals).orElse(false)) {
                                throw ApiException.forbidden(
                                        "NotAccountAdmin", "only an admin of account '" + slug + "' may do this");
                            }
                            return a;
                        }));
    }

    /** The id of an account the caller administers (account admin or platform admin), in the caller's session. */
    public Uni<Long> administeredId(String slug, Caller caller) {
        return administered(slug, caller).map(AccountRow::id);
    }

    /** The account as the owner of webhooks, if the caller administers it; 403 {@code NotAccountAdmin} otherwise. */
    public Uni<io.crater.notify.WebhookViews.Owner> webhookOwner(String slug, Caller caller) {
        return Panache.withSession(() -> administeredId(slug, caller))
                .map(io.crater.notify.WebhookViews.Owner::account);
    }

    /** An account as listed: its row and its member count. */
    record Listed(AccountRow account, long members) {
        static Listed of(Object[] r) {
            return new Listed(AccountRow.of(r), Sql.longOf(r[7]));
        }
    }

    public Uni<Page<AccountSummary>> list(Caller caller, String q, String cursor, Integer limit) {
        int n = Page.limit(limit);
        long after = Page.afterId(cursor);
        StringBuilder sql = new StringBuilder(
                "SELECT " + AccountRow.COLUMNS
                        + ", (SELECT count(*) FROM account_members m WHERE m.account_id = a.id) FROM accounts a WHERE a.id > ?1");
        List<Object> params = new ArrayList<>(List.of(after));
        if (!caller.platformAdmin()) {
            params.add(caller.userId());
            sql.append(" AND EXISTS (SELECT 1 FROM account_members m WHERE m.account_id = a.id AND m.user_id = ?")
                    .append(params.size())
                    .append(')');
        }
        if (q != null && !q.isBlank()) {
            params.add("%" + q.trim().toLowerCase() + "%");
            sql.append(" AND (a.slug LIKE ?")
                    .append(params.size())
                    .append(" OR lower(a.name) LIKE ?")
                    .append(params.size())
                    .append(')');
        }
        sql.append(" ORDER BY a.id LIMIT ").append(n + 1);
        return Panache.withSession(() -> Sql.rows(sql.toString(), params.toArray()))
                .map(rows -> {
                    List<AccountSummary> items = new ArrayList<>();
                    long last = 0;
                    for (Object[] r : rows.subList(0, Math.min(n, rows.size()))) {
                        Listed l = Listed.of(r);
                        AccountRow a = l.account();
                        items.add(new AccountSummary(
                                a.slug(), a.name(), a.kind(), a.gid(), a.expiresAt(), a.archivedAt(), l.members()));
                        last = a.id();
                    }
                    return new Page<>(items, rows.size() > n ? Long.toString(last) : null);
                });
    }

    public Uni<AccountViews.AccountDetail> detail(String slug, Caller caller) {
        return Panache.withSession(() -> visible(slug, caller)
                .flatMap(a -> roleOf(a.id(), caller.userId())
                        .flatMap(role -> quotas.lines(a.id())
                                .map(lines -> new AccountViews.AccountDetail(
                                        a.slug(),
                                        a.name(),
                                        a.kind(),
                                        a.gid(),
                                        a.expiresAt(),
                                        a.archivedAt(),
                                        role.orElse(null),
                                        lines)))));
    }

    public Uni<AccountViews.AccountDetail> create(CreateAccount req, Caller caller) {
        requirePlatformAdmin(caller);
        List<Problem.FieldError> errors = new ArrayList<>();
        String slug = req == null || req.slug() == null ? "" : req.slug().trim();
        if (!SLUG.matcher(slug).matches()) {
            errors.add(new Problem.FieldError("slug", "a DNS label of 1 to 50 lowercase letters, digits and '-'"));
        } else if (slug.equals("personal") || slug.equals("backfill") || slug.startsWith("u-")) {
            errors.add(
                    new Problem.FieldError("slug", "'personal', 'backfill' and slugs starting with 'u-' are reserved"));
        }
        if (req == null
                || req.name() == null
                || req.name().isBlank()
                || req.name().length() > 200) {
            errors.add(new Problem.FieldError("name", "required, at most 200 characters"));
        }
        if (req != null && req.expiresAt() != null && !req.expiresAt().isAfter(clock.instant())) {
            errors.add(new Problem.FieldError("expiresAt", "must be in the future"));
        }
        if (!errors.isEmpty()) {
            return Uni.createFrom()
                    .failure(ApiException.badRequest(
                            "InvalidRequest", "the account cannot be created as given", errors));
        }
        return Panache.withTransaction(() -> Sql.count("SELECT count(*) FROM accounts WHERE slug = ?1", slug)
                        .flatMap(n -> {
                            if (n > 0) {
                                throw new ApiException(
                                        409,
                                        "AccountExists",
                                        "Conflict",
                                        "an account '" + slug + "' exists already",
                                        null,
                                        null,
                                        null);
                            }
                            String sql = req.expiresAt() == null
                                    ? "INSERT INTO accounts (slug, name, kind) VALUES (?1, ?2, 'team') RETURNING id"
                                    : "INSERT INTO accounts (slug, name, kind, expires_at) VALUES (?1, ?2, 'team', ?3) RETURNING id";
                            Object[] params = req.expiresAt() == null
                                    ? new Object[] {slug, req.name().trim()}
                                    : new Object[] {slug, req.name().trim(), req.expiresAt()};
                            return Sql.insertReturningId(sql, params);
                        })
                        .call(id -> firstAdmin(id, req.admin()))
                        .flatMap(id -> audit.record(
                                caller.actor(slug),
                                "account.create",
                                "account",
                                slug,
                                null,
                                req.admin() == null || req.admin().isBlank()
                                        ? Map.of("name", req.name().trim())
                                        : Map.of("name", req.name().trim(), "admin", admin(req)))))
                .invoke(() -> changed.fireAsync(new QuotaChanged(slug)))
                .flatMap(v -> detail(slug, caller));
    }

    private static String admin(CreateAccount req) {
        return req.admin().trim().toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * The new account's first admin, when one is named, in the creating transaction: a user who does not exist is
     * a field error and nothing is created.
     */
    private Uni<Void> firstAdmin(long accountId, String username) {
        if (username == null || username.isBlank()) {
            return Uni.createFrom().voidItem();
        }
        String name = username.trim().toLowerCase(java.util.Locale.ROOT);
        return users.byName(name)
                .flatMap(r -> {
                    if (r.isEmpty()) {
                        throw ApiException.badRequest(
                                "InvalidRequest",
                                "the account cannot be created as given",
                                List.of(new Problem.FieldError("admin", "no user '" + name + "'")));
                    }
                    return Sql.update(
                            "INSERT INTO account_members (account_id, user_id, role, file_access) VALUES (?1, ?2, 'admin', 'rw')",
                            accountId,
                            r.get().id());
                })
                .replaceWithVoid();
    }

    public Uni<AccountViews.AccountDetail> update(String slug, UpdateAccount req, Caller caller) {
        requirePlatformAdmin(caller);
        if (req == null
                || (req.name() != null && (req.name().isBlank() || req.name().length() > 200))) {
            return Uni.createFrom()
                    .failure(ApiException.badRequest(
                            "InvalidRequest",
                            "name must not be blank",
                            List.of(new Problem.FieldError("name", "1 to 200 characters"))));
        }
        return Panache.withTransaction(() -> bySlug(slug).flatMap(a -> {
                    String name = req.name() == null ? a.name() : req.name().trim();
                    var expires = Boolean.TRUE.equals(req.clearExpiry())
                            ? null
                            : req.expiresAt() == null ? a.expiresAt() : req.expiresAt();
                    Uni<Integer> write = expires == null
                            ? Sql.update(
                                    "UPDATE accounts SET name = ?2, expires_at = NULL, updated_at = now() WHERE id = ?1",
                                    a.id(),
                                    name)
                            : Sql.update(
                                    "UPDATE accounts SET name = ?2, expires_at = ?3, updated_at = now() WHERE id = ?1",
                                    a.id(),
                                    name,
                                    expires);
                    return write.flatMap(x -> audit.record(
                            caller.actor(slug),
                            "account.update",
                            "account",
                            slug,
                            summary(a.name(), a.expiresAt()),
                            summary(name, expires)));
                }))
                .flatMap(v -> detail(slug, caller));
    }

    /**
     * Every new user gets a personal account and joins the team accounts named with them, in the transaction that
     * creates the user: an account that does not exist (or is personal, or archived) refuses the whole creation.
     */
    @Override
    public Uni<?> userCreated(
            long userId,
            String username,
            String userSlug,
            String displayName,
            List<io.crater.identity.UserCreated.AccountRole> accounts,
            Actor actor) {
        return createPersonal(userId, userSlug, displayName)
                .flatMap(p -> io.crater.platform.Unis.sequentially(
                        java.util.stream.IntStream.range(0, accounts.size())
                                .boxed()
                                .toList(),
                        i -> join(userId, username, accounts.get(i), i, actor)));
    }

    private Uni<Void> join(
            long userId, String username, io.crater.identity.UserCreated.AccountRole a, int i, Actor actor) {
        String slug = a.account().trim();
        return Sql.rows("SELECT id FROM accounts WHERE slug = ?1 AND kind <> 'personal' AND archived_at IS NULL", slug)
                .flatMap(rows -> {
                    if (rows.isEmpty()) {
                        throw ApiException.badRequest(
                                "InvalidUser",
                                "the user cannot be created as given",
                                List.of(new Problem.FieldError(
                                        "accounts[" + i + "].account", "no team account '" + slug + "'")));
                    }
                    return Sql.update(
                                    "INSERT INTO account_members (account_id, user_id, role) VALUES (?1, ?2, ?3)",
                                    Sql.longOf(rows.get(0)[0]),
                                    userId,
                                    a.role())
                            .flatMap(n -> audit.record(
                                    new Actor(actor.userId(), actor.username(), actor.clientAddress(), slug),
                                    "member.add",
                                    "member",
                                    slug + "/" + username,
                                    null,
                                    Map.of("role", a.role(), "fileAccess", "rw")));
                });
    }

    /** Creates the personal account of a new user inside the caller's transaction; returns its id. */
    public Uni<Long> createPersonal(long userId, String userSlug, String displayName) {
        String slug = "u-" + userSlug;
        return Sql.insertReturningId(
                        "INSERT INTO accounts (slug, name, kind) VALUES (?1, ?2, 'personal') RETURNING id",
                        slug,
                        displayName)
                .call(id -> Sql.update(
                        "INSERT INTO account_members (account_id, user_id, role) VALUES (?1, ?2, 'admin')", id, userId))
                .call(id -> users.setDefaultAccount(userId, id))
                .call(id -> quotas.setPersonalDefaults(id));
    }

    static void requirePlatformAdmin(Caller caller) {
        if (!caller.platformAdmin()) {
            throw ApiException.forbidden("NotPlatformAdmin", "only a platform administrator may do this");
        }
    }

    private static Map<String, Object> summary(String name, java.time.Instant expires) {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        m.put("name", name);
        m.put("expiresAt", expires == null ? null : expires.toString());
        return m;
    }
}
