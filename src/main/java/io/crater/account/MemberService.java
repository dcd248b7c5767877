package io.crater.account;

import io.crater.account.AccountViews.Limits;
import io.crater.account.AccountViews.Member;
import io.crater.account.AccountViews.MemberUpdate;
import io.crater.audit.AuditService;
import io.crater.identity.Caller;
import io.crater.identity.UserDirectory;
import io.crater.platform.ApiException;
import io.crater.platform.Problem;
import io.crater.platform.Sql;
import io.crater.policy.MemberLimits;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Members of accounts, their roles, file access and limits. */
@ApplicationScoped
public class MemberService {

    private static final Set<String> ROLES = Set.of("admin", "member");
    private static final Set<String> ACCESS = Set.of("rw", "ro");

    @Inject
    AccountService accounts;

    @Inject
    QuotaService quotas;

    @Inject
    AuditService audit;

    @Inject
    UserDirectory users;

    /** A membership as stored: the user's id, role and file access. */
    record Listed(long userId, String role, String fileAccess, String grantedBy) {
        static final String COLUMNS = "m.user_id, m.role, m.file_access, m.granted_by";

        static Listed of(Object[] r) {
            return new Listed(Sql.longOf(r[0]), (String) r[1], (String) r[2], (String) r[3]);
        }
    }

    /** The account's members by username, each with their own and effective limits. */
    public Uni<List<Member>> list(String slug, Caller caller) {
        return Panache.withSession(() -> accounts.visible(slug, caller)
                .flatMap(a -> quotas.storedLimits(a.id(), null)
                        .flatMap(defaults -> Sql.rows(
                                        "SELECT " + Listed.COLUMNS + " FROM account_members m WHERE m.account_id = ?1",
                                        a.id())
                                .map(rows -> rows.stream().map(Listed::of).toList())
                                .flatMap(members -> users.people(members.stream()
                                                .map(Listed::userId)
                                                .toList())
                                        .flatMap(people -> {
                                            Uni<List<Member>> acc =
                                                    Uni.createFrom().item(new ArrayList<>());
                                            for (Listed m : byUsername(members, people)) {
                                                UserDirectory.Person p = people.get(m.userId());
                                                acc = acc.flatMap(list -> quotas.storedLimits(a.id(), m.userId())
                                                        .map(own -> {
                                                            list.add(new Member(
                                                                    p.username(),
                                                                    p.displayName(),
                                                                    m.role(),
                                                                    m.fileAccess(),
                                                                    QuotaService.view(own),
                                                                    QuotaService.view(
                                                                            MemberLimits.effective(defaults, own)),
                                                                    m.grantedBy()));
                                                            return list;
                                                        }));
                                            }
                                            return acc;
                                        })))));
    }

    /** The memberships whose user exists, ordered by username as the list shows them. */
    private static List<Listed> byUsername(List<Listed> members, Map<Long, UserDirectory.Person> people) {
        return members.stream()
                .filter(m -> people.containsKey(m.userId()))
                .sorted(java.util.Comparator.comparing(
                        (Listed m) -> people.get(m.userId()).username()))
                .toList();
    }

    /** Adds the member or changes their role and file access, never leaving the account without an admin. */
    private Uni<Void> store(
            long accountId, long uid, String slug, String username, String role, String access, Caller caller) {
        return Sql.rows(
                        "SELECT role, file_access FROM account_members WHERE account_id = ?1 AND user_id = ?2",
                        accountId,
                        uid)
                .flatMap(before -> {
                    Map<String, String> was = before.isEmpty()
                            ? null
                            : Map.of("role", (String) before.get(0)[0], "fileAccess", (String) before.get(0)[1]);
                    Uni<Void> guard = was != null && "admin".equals(was.get("role")) && !"admin".equals(role)
                            ? keepsAnAdmin(accountId, uid)
                            : Uni.createFrom().voidItem();
                    return guard.flatMap(v -> Sql.update(
                                    "INSERT INTO account_members (account_id, user_id, role, file_access) VALUES (?1, ?2, ?3, ?4)"
                                            + " ON CONFLICT (account_id, user_id) DO UPDATE SET role = EXCLUDED.role, file_access = EXCLUDED.file_access,"
                                            + " granted_by = 'manual'",
                                    accountId,
                                    uid,
                                    role,
                                    access))
                            .flatMap(x -> audit.record(
                                    caller.actor(slug),
                                    was == null ? "member.add" : "member.update",
                                    "member",
                                    slug + "/" + username,
                                    was,
                                    Map.of("role", role, "fileAccess", access)));
                });
    }

    public Uni<Member> put(String slug, String username, MemberUpdate req, Caller caller) {
        List<Problem.FieldError> errors = new ArrayList<>();
        String role = req == null || req.role() == null ? "member" : req.role();
        String access = req == null || req.fileAccess() == null ? "rw" : req.fileAccess();
        if (!ROLES.contains(role)) {
            errors.add(new Problem.FieldError("role", "admin or member"));
        }
        if (!ACCESS.contains(access)) {
            errors.add(new Problem.FieldError("fileAccess", "rw or ro"));
        }
        return Panache.withTransaction(() -> accounts.administered(slug, caller).flatMap(a -> {
                    if (!errors.isEmpty()) {
                        throw ApiException.badRequest(
                                "InvalidRequest", "the membership cannot be set as given", errors);
                    }
                    if (a.personal()) {
                        throw new ApiException(
                                409,
                                "PersonalAccount",
                                "Conflict",
                                "a personal account has exactly one member",
                                null,
                                null,
                                null);
                    }
                    return userId(username).flatMap(uid -> store(a.id(), uid, slug, username, role, access, caller));
                }))
                .flatMap(v -> list(slug, caller))
                .map(members -> members.stream()
                        .filter(m -> m.username().equals(username.toLowerCase()))
                        .findFirst()
                        .orElseThrow());
    }

    public Uni<Void> remove(String slug, String username, Caller caller) {
        return Panache.withTransaction(() -> accounts.administered(slug, caller)
                .flatMap(a -> userId(username)
                        .flatMap(uid -> Sql.rows(
                                        "SELECT role, file_access FROM account_members WHERE account_id = ?1 AND user_id = ?2",
                                        a.id(),
                                        uid)
                                .flatMap(rows -> {
                                    if (rows.isEmpty()) {
                                        throw ApiException.notFound(
                                                "'" + username + "' is not a member of '" + slug + "'");
                                    }
                                    if (a.personal()) {
                                        throw new ApiException(
                                                409,
                                                "PersonalAccount",
                                                "Conflict",
                                                "a personal account keeps its owner",
                                                null,
                                                null,
                                                null);
                                    }
                                    Uni<Void> guard = "admin".equals(rows.get(0)[0])
                                            ? keepsAnAdmin(a.id(), uid)
                                            : Uni.createFrom().voidItem();
                                    return guard.flatMap(v -> Sql.update(
                                                    "DELETE FROM member_limits WHERE account_id = ?1 AND user_id = ?2",
                                                    a.id(),
                                                    uid))
                                            .flatMap(x -> Sql.update(
                                                    "DELETE FROM account_members WHERE account_id = ?1 AND user_id = ?2",
                                                    a.id(),
                                                    uid))
                                            .flatMap(x -> audit.record(
                                                    caller.actor(slug),
                                                    "member.remove",
                                                    "member",
                                                    slug + "/" + username,
                                                    Map.of("member", username),
                                                    null));
                                }))));
    }

    public Uni<Limits> defaultLimits(String slug, Caller caller) {
        return Panache.withSession(() -> accounts.visible(slug, caller)
                .flatMap(a -> quotas.storedLimits(a.id(), null))
                .map(QuotaService::view));
    }

    public Uni<Limits> putDefaultLimits(String slug, Limits req, Caller caller) {
        return Panache.withTransaction(() -> accounts.administered(slug, caller).flatMap(a -> {
            MemberLimits limits = quotas.parseLimits(req);
            return quotas.storedLimits(a.id(), null)
                    .flatMap(before -> quotas.storeLimits(a.id(), null, limits)
                            .flatMap(v -> audit.record(
                                    caller.actor(slug),
                                    "limits.update",
                                    "account",
                                    slug,
                                    QuotaService.view(before),
                                    QuotaService.view(limits))))
                    .replaceWith(QuotaService.view(limits));
        }));
    }

    public Uni<Limits> memberLimits(String slug, String username, Caller caller) {
        return Panache.withSession(() -> accounts.visible(slug, caller)
                .flatMap(a -> memberId(a, username)
                        .flatMap(uid -> quotas.storedLimits(a.id(), uid))
                        .map(QuotaService::view)));
    }

    public Uni<Limits> putMemberLimits(String slug, String username, Limits req, Caller caller) {
        return Panache.withTransaction(() -> accounts.administered(slug, caller).flatMap(a -> {
            MemberLimits limits = quotas.parseLimits(req);
            return memberId(a, username)
                    .flatMap(uid -> quotas.storedLimits(a.id(), uid)
                            .flatMap(before -> quotas.storeLimits(a.id(), uid, limits)
                                    .flatMap(v -> audit.record(
                                            caller.actor(slug),
                                            "limits.update",
                                            "member",
                                            slug + "/" + username,
                                            QuotaService.view(before),
                                            QuotaService.view(limits)))))
                    .replaceWith(QuotaService.view(limits));
        }));
    }

    private Uni<Long> memberId(AccountRow a, String username) {
        return userId(username)
                .flatMap(uid -> Sql.count(
                                "SELECT count(*) FROM account_members WHERE account_id = ?1 AND user_id = ?2",
                                a.id(),
                                uid)
                        .map(n -> {
                            if (n == 0) {
                                throw ApiException.notFound("'" + username + "' is not a member of '" + a.slug() + "'");
                            }
                            return uid;
                        }));
    }

    private Uni<Long> userId(String username) {
        return users.byName(username == null ? "" : username)
                .map(p -> p.orElseThrow(() -> ApiException.notFound("no user '" + username + "'"))
                        .id());
    }

    private Uni<Void> keepsAnAdmin(long accountId, long leavingUserId) {
        return Sql.count(
                        "SELECT count(*) FROM account_members WHERE account_id = ?1 AND role = 'admin' AND user_id <> ?2",
                        accountId,
                        leavingUserId)
                .map(n -> {
                    if (n == 0) {
                        throw new ApiException(
                                409,
                                "LastAccountAdmin",
                                "Conflict",
                                "an account keeps at least one admin",
                                null,
                                null,
                                null);
                    }
                    return null;
                });
    }
}
