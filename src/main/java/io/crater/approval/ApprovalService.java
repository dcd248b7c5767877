package io.crater.approval;

import io.crater.account.AccountService;
import io.crater.approval.ApprovalViews.Approval;
import io.crater.approval.ApprovalViews.CreateApproval;
import io.crater.approval.ApprovalViews.Person;
import io.crater.audit.AuditService;
import io.crater.cluster.AcceleratorCatalogue;
import io.crater.identity.Caller;
import io.crater.identity.GovernanceConfig;
import io.crater.identity.UserDirectory;
import io.crater.job.JobQueries;
import io.crater.notify.NotificationService;
import io.crater.platform.ApiException;
import io.crater.platform.Page;
import io.crater.platform.Problem;
import io.crater.platform.Sql;
import io.crater.policy.Amounts;
import io.crater.policy.Quantities;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Requests that need someone's yes: temporary quota grants (reviewed by platform admins), job locks and
 * access to restricted accelerator models (reviewed by the account's admins or platform admins). Nobody
 * decides their own request. A grant takes effect when approved and ends by itself at {@code until}.
 */
@ApplicationScoped
public class ApprovalService {

    static final String COLUMNS =
            "p.id, p.kind, p.state, p.account_id, p.requester_id, p.reviewer_id, p.resource, p.amount_milli, p.until,"
                    + " p.model, p.job_public_id, p.reason, p.comment, p.created_at, p.decided_at";
    static final String FROM = " FROM approvals p";

    @Inject
    AccountService accounts;

    @Inject
    UserDirectory people;

    @Inject
    AuditService audit;

    @Inject
    NotificationService notifications;

    @Inject
    AcceleratorCatalogue catalogue;

    @Inject
    GovernanceConfig config;

    @Inject
    Event<AccountService.QuotaChanged> changed;

    @Inject
    Clock clock;

    @Inject
    JobQueries jobs;

    /** A stored approval with the ids needed for checks. */
    record Row(Approval view, long requesterId, long accountId) {}

    /** The stored rows with their accounts' slugs and their people's names, in the caller's session. */
    Uni<List<Row>> rows(List<Object[]> columns) {
        List<ApprovalRow> found = columns.stream().map(ApprovalRow::of).toList();
        Set<Long> accountIds = new java.util.HashSet<>();
        Set<Long> userIds = new java.util.HashSet<>();
        found.forEach(r -> {
            accountIds.add(r.accountId());
            userIds.add(r.requesterId());
            if (r.reviewerId() != null) {
                userIds.add(r.reviewerId());
            }
        });
        return accounts.slugs(accountIds)
                .flatMap(slugs -> people.people(userIds)
                        .map(names ->
                                found.stream().map(r -> row(r, slugs, names)).toList()));
    }

    /** The one stored row, or 404. */
    private Uni<Row> row(java.util.Optional<Object[]> columns, long id) {
        return rows(List.<Object[]>of(columns.orElseThrow(() -> ApiException.notFound("no approval " + id))))
                .map(rows -> rows.get(0));
    }

    private Row row(ApprovalRow r, Map<Long, String> slugs, Map<Long, UserDirectory.Person> names) {
        Instant until = r.until();
        String shown = until != null
                        && !clock.instant().isBefore(until)
                        && (r.state().equals("pending") || r.state().equals("approved"))
                ? "expired"
                : r.state();
        Approval a = new Approval(
                r.id(),
                r.kind(),
                shown,
                slugs.get(r.accountId()),
                person(names.get(r.requesterId())),
                r.resource(),
                r.amountMilli() == null ? null : Quantities.format(r.amountMilli()),
                until,
                r.model(),
                r.job(),
                r.reason(),
                r.reviewerId() == null ? null : person(names.get(r.reviewerId())),
                r.comment(),
                r.createdAt(),
                r.decidedAt());
        return new Row(a, r.requesterId(), r.accountId());
    }

    private static Person person(UserDirectory.Person p) {
        return p == null ? null : new Person(p.username(), p.displayName());
    }

    public Uni<Approval> create(CreateApproval req, Caller caller) {
        if (req == null
                || req.kind() == null
                || !Set.of("quota-grant", "job-lock", "model-access").contains(req.kind())) {
            return Uni.createFrom()
                    .failure(ApiException.badRequest(
                            "InvalidRequest",
                            "kind must be quota-grant, job-lock or model-access",
                            List.of(new Problem.FieldError("kind", "quota-grant, job-lock or model-access"))));
        }
        List<Problem.FieldError> errors = new ArrayList<>();
        if (req.reason() == null || req.reason().isBlank() || req.reason().length() > 2000) {
            errors.add(new Problem.FieldError("reason", "say why, in at most 2000 characters"));
        }
        Instant now = clock.instant();
        return switch (req.kind()) {
            case "quota-grant" -> quotaGrant(req, caller, errors, now);
            case "model-access" -> modelAccess(req, caller, errors);
            default -> jobLock(req, caller, errors, now);
        };
    }

    private Uni<Approval> quotaGrant(CreateApproval req, Caller caller, List<Problem.FieldError> errors, Instant now) {
        Set<String> known = new java.util.HashSet<>(List.of("cpu", "memory"));
        catalogue.models().forEach(m -> known.add(m.key()));
        if (req.resource() == null || !known.contains(req.resource())) {
            errors.add(new Problem.FieldError("resource", "unknown resource; known: " + String.join(", ", known)));
        } else if (catalogue.model(req.resource()).filter(m -> m.retired()).isPresent()) {
            errors.add(
                    new Problem.FieldError("resource", "ModelRetired: '" + req.resource() + "' takes no new grants"));
        }
        Amounts.Kind kind = Amounts.Kind.of(req.resource() == null ? "" : req.resource());
        Amounts.Checked checked = Amounts.check(kind, req.amount(), 1, Amounts.maxMilli(kind));
        Long amount = checked.ok() ? checked.milli() : null;
        if (!checked.ok()) {
            errors.add(new Problem.FieldError("amount", "a positive amount: " + checked.problem()));
        }
        if (req.until() == null || !req.until().isAfter(now)) {
            errors.add(new Problem.FieldError("until", "a time in the future"));
        }
        if (!errors.isEmpty()) {
            return Uni.createFrom()
                    .failure(ApiException.badRequest("InvalidApproval", "the request cannot be made as given", errors));
        }
        long milli = amount;
        return Panache.withTransaction(() -> memberAccount(req.account(), caller)
                        .flatMap(accountId -> insert(
                                caller,
                                accountId,
                                "INSERT INTO approvals (kind, state, account_id, requester_id, resource, amount_milli, until, reason) VALUES ('quota-grant', 'pending', ?1, ?2, ?3, ?4, ?5, ?6) RETURNING id",
                                accountId,
                                caller.userId(),
                                req.resource(),
                                milli,
                                req.until(),
                                req.reason().trim())))
                .flatMap(this::get);
    }

    private Uni<Approval> modelAccess(CreateApproval req, Caller caller, List<Problem.FieldError> errors) {
        var model = catalogue.models().stream()
                .filter(m -> m.key().equals(req.model()))
                .findFirst();
        if (model.isEmpty()) {
            errors.add(new Problem.FieldError("model", "unknown accelerator model"));
        }
        if (!errors.isEmpty()) {
            return Uni.createFrom()
                    .failure(ApiException.badRequest("InvalidApproval", "the request cannot be made as given", errors));
        }
        return Panache.withTransaction(() -> memberAccount(req.account(), caller)
                        .flatMap(accountId -> Uni.createFrom()
                                .item(model.get().restricted())
                                .flatMap(restricted -> {
                                    if (!restricted) {
                                        throw new ApiException(
                                                409,
                                                "ModelNotRestricted",
                                                "Conflict",
                                                "'" + req.model()
                                                        + "' is open to everyone; no access request is needed",
                                                null,
                                                null,
                                                null);
                                    }
                                    return insert(
                                            caller,
                                            accountId,
                                            "INSERT INTO approvals (kind, state, account_id, requester_id, model, reason) VALUES ('model-access', 'pending', ?1, ?2, ?3, ?4) RETURNING id",
                                            accountId,
                                            caller.userId(),
                                            req.model(),
                                            req.reason().trim());
                                })))
                .flatMap(this::get);
    }

    private Uni<Approval> jobLock(CreateApproval req, Caller caller, List<Problem.FieldError> errors, Instant now) {
        if (req.jobId() == null || req.jobId().isBlank()) {
            errors.add(new Problem.FieldError("jobId", "required"));
        }
        if (req.until() == null || !req.until().isAfter(now)) {
            errors.add(new Problem.FieldError("until", "a time in the future"));
        } else if (Duration.between(now, req.until()).compareTo(config.lockMaxLength()) > 0) {
            errors.add(new Problem.FieldError(
                    "until", "at most " + config.lockMaxLength().toHours() + " h from now"));
        }
        if (!errors.isEmpty()) {
            return Uni.createFrom()
                    .failure(ApiException.badRequest("InvalidApproval", "the request cannot be made as given", errors));
        }
        boolean auto = Duration.between(now, req.until()).compareTo(config.lockAutoApproveBelow()) < 0;
        return Panache.withTransaction(() -> jobs.holder(req.jobId()).flatMap(job -> {
                    if (job.isEmpty() || job.get().userId() != caller.userId()) {
                        throw ApiException.notFound("you have no job '" + req.jobId() + "'");
                    }
                    long accountId = job.get().accountId();
                    return Sql.count(
                                    "SELECT count(*) FROM approvals WHERE kind = 'job-lock' AND job_public_id = ?1 AND created_at > ?2",
                                    req.jobId(),
                                    now.minus(config.lockWindow()))
                            .flatMap(n -> {
                                if (n >= config.lockMaxPerJob()) {
                                    throw new ApiException(
                                            409,
                                            "TooManyLockRequests",
                                            "Conflict",
                                            "a job may ask for a lock " + config.lockMaxPerJob() + " times in "
                                                    + config.lockWindow().toDays() + " days",
                                            null,
                                            null,
                                            null);
                                }
                                return insertLock(req, caller, accountId, auto, now);
                            });
                }))
                .flatMap(this::get);
    }

    /** Stores a lock request, approved at once when it is shorter than {@code lock-auto-approve-below}. */
    private Uni<Long> insertLock(CreateApproval req, Caller caller, long accountId, boolean auto, Instant now) {
        String state = auto ? "approved" : "pending";
        String sql = "INSERT INTO approvals (kind, state, account_id, requester_id, until, job_public_id, reason"
                + (auto ? ", decided_at, comment" : "")
                + ") VALUES ('job-lock', ?1, ?2, ?3, ?4, ?5, ?6"
                + (auto
                        ? ", ?7, 'approved by Crater: shorter than "
                                + config.lockAutoApproveBelow().toHours() + " h'"
                        : "")
                + ") RETURNING id";
        Object[] params = auto
                ? new Object[] {
                    state,
                    accountId,
                    caller.userId(),
                    req.until(),
                    req.jobId(),
                    req.reason().trim(),
                    now
                }
                : new Object[] {
                    state,
                    accountId,
                    caller.userId(),
                    req.until(),
                    req.jobId(),
                    req.reason().trim()
                };
        return insert(caller, accountId, sql, params);
    }

    private Uni<Long> insert(Caller caller, long accountId, String sql, Object... params) {
        return Sql.insertReturningId(sql, params)
                .call(id -> accounts.slugs(Set.of(accountId))
                        .flatMap(slugs -> audit.record(
                                caller.actor(slugs.get(accountId)),
                                "approval.request",
                                "approval",
                                Long.toString(id),
                                null,
                                Map.of("kind", sqlKind(sql)))));
    }

    private static String sqlKind(String sql) {
        return sql.contains("'quota-grant'")
                ? "quota-grant"
                : sql.contains("'model-access'") ? "model-access" : "job-lock";
    }

    /** The account by slug if the caller is a member (or platform admin); 403 otherwise. */
    private Uni<Long> memberAccount(String slug, Caller caller) {
        if (slug == null || slug.isBlank()) {
            throw ApiException.badRequest(
                    "InvalidApproval", "name the account", List.of(new Problem.FieldError("account", "required")));
        }
        return accounts.access(slug, caller).map(AccountService.Access::id);
    }

    Uni<Approval> get(long id) {
        return Panache.withSession(() -> Sql.row("SELECT " + COLUMNS + FROM + " WHERE p.id = ?1", id)
                        .flatMap(r -> row(r, id)))
                .map(Row::view);
    }

    /** {@code mine}: what the caller asked for; {@code review}: what the caller may decide. */
    public Uni<Page<Approval>> list(String scope, String state, String cursor, Integer limit, Caller caller) {
        int n = Page.limit(limit);
        long before = cursor == null || cursor.isBlank() ? Long.MAX_VALUE : Page.afterId(cursor);
        StringBuilder sql = new StringBuilder("SELECT " + COLUMNS + FROM + " WHERE p.id < ?1");
        List<Object> params = new ArrayList<>(List.of(before));
        boolean administered = "review".equals(scope) && !caller.platformAdmin();
        if ("review".equals(scope)) {
            if (administered) {
                params.add(""); // the ids of the accounts the caller administers, set below
                sql.append(" AND p.kind <> 'quota-grant' AND p.account_id IN (SELECT unnest(string_to_array(?")
                        .append(params.size())
                        .append(", ','))::bigint)");
            }
        } else if (scope == null || "mine".equals(scope)) {
            params.add(caller.userId());
            sql.append(" AND p.requester_id = ?").append(params.size());
        } else {
            throw ApiException.badRequest(
                    "InvalidRequest",
                    "scope is mine or review",
                    List.of(new Problem.FieldError("scope", "mine or review")));
        }
        if (state != null && !state.isBlank()) {
            if (!Set.of("pending", "approved", "rejected", "cancelled", "expired")
                    .contains(state)) {
                throw ApiException.badRequest(
                        "InvalidRequest",
                        "unknown state",
                        List.of(new Problem.FieldError("state", "pending, approved, rejected, cancelled or expired")));
            }
            if (state.equals("rejected") || state.equals("cancelled")) {
                sql.append(" AND p.state = '").append(state).append('\'');
            } else {
                params.add(clock.instant());
                int t = params.size();
                sql.append(
                        state.equals("expired")
                                ? " AND p.state IN ('pending', 'approved') AND p.until IS NOT NULL AND p.until <= ?" + t
                                : " AND p.state = '" + state + "' AND (p.until IS NULL OR p.until > ?" + t + ")");
            }
        }
        sql.append(" ORDER BY p.id DESC LIMIT ").append(n + 1);
        return Panache.withSession(() -> (administered
                                ? accounts.administeredIds(caller.userId())
                                        .invoke(ids -> params.set(1, Sql.commaList(ids)))
                                        .replaceWithVoid()
                                : Uni.createFrom().voidItem())
                        .flatMap(v -> Sql.rows(sql.toString(), params.toArray()))
                        .flatMap(rows ->
                                rows(rows.stream().limit(n).toList()).map(items -> Map.entry(rows.size() > n, items))))
                .map(found -> Page.of(found.getValue().stream().map(Row::view).toList(), found.getKey(), i -> i.id()));
    }

    public Uni<Approval> decide(long id, String decision, String comment, Caller caller) {
        Instant now = clock.instant();
        return Panache.withTransaction(() -> Sql.row(
                                "SELECT " + COLUMNS + FROM + " WHERE p.id = ?1 FOR UPDATE OF p", id)
                        .flatMap(found -> row(found, id))
                        .flatMap(r -> {
                            if (decision.equals("cancel")) {
                                if (r.requesterId() != caller.userId()) {
                                    throw ApiException.forbidden(
                                            "NotRequester", "only the person who asked may cancel a request");
                                }
                            } else if (r.requesterId() == caller.userId()) {
                                throw ApiException.forbidden("SelfApproval", "nobody decides their own request");
                            }
                            Uni<Void> allowed =
                                    decision.equals("cancel") ? Uni.createFrom().voidItem() : mayReview(r, caller);
                            return allowed.flatMap(v -> settle(r, decision, comment, caller, now));
                        }))
                .invoke(a -> {
                    if (a.kind().equals("quota-grant")) {
                        changed.fireAsync(new AccountService.QuotaChanged(a.account()));
                    }
                })
                .flatMap(a -> get(id));
    }

    /** Writes a pending request's decision, audits it and tells the requester (unless they cancelled). */
    private Uni<Approval> settle(Row r, String decision, String comment, Caller caller, Instant now) {
        Approval a = r.view();
        long id = a.id();
        if (!a.state().equals("pending")) {
            throw new ApiException(
                    409,
                    "ApprovalNotPending",
                    "Conflict",
                    "this request is " + a.state() + " already",
                    null,
                    null,
                    null);
        }
        if (decision.equals("approve") && a.kind().equals("quota-grant") && a.resource() != null) {
            catalogue.model(a.resource()).filter(m -> m.retired()).ifPresent(m -> {
                throw ApiException.conflict("ModelRetired", "'" + m.key() + "' was retired: it takes no new grants");
            });
        }
        String next = switch (decision) {
            case "approve" -> "approved";
            case "reject" -> "rejected";
            default -> "cancelled";
        };
        String text = comment == null ? "" : comment.trim();
        return Sql.update(
                        "UPDATE approvals SET state = ?2, reviewer_id = ?3, comment = ?4, decided_at = ?5 WHERE id = ?1",
                        id,
                        next,
                        caller.userId(),
                        text,
                        now)
                .flatMap(x -> audit.record(
                        caller.actor(a.account()),
                        "approval." + decision,
                        "approval",
                        Long.toString(id),
                        Map.of("state", "pending"),
                        Map.of("state", next)))
                .flatMap(x -> decision.equals("cancel")
                        ? Uni.createFrom().voidItem()
                        : notifications.notify(
                                r.requesterId(),
                                "approval." + next,
                                "Your " + a.kind() + " request #" + id + " was " + next
                                        + (text.isEmpty() ? "" : ": " + text),
                                "/approvals",
                                Map.of("request", id, "requestKind", a.kind(), "comment", text)))
                .replaceWith(a);
    }

    /** Platform admins decide everything; account admins decide locks and model access in their account. */
    private Uni<Void> mayReview(Row r, Caller caller) {
        if (caller.platformAdmin()) {
            return Uni.createFrom().voidItem();
        }
        if (r.view().kind().equals("quota-grant")) {
            throw ApiException.forbidden("NotPlatformAdmin", "quota grants are decided by platform administrators");
        }
        return accounts.roleOf(r.accountId(), caller.userId()).map(role -> {
            if (!role.map("admin"::equals).orElse(false)) {
                throw ApiException.forbidden(
                        "NotAccountAdmin",
                        "only an admin of account '" + r.view().account() + "' may decide this");
            }
            return null;
        });
    }
}
