package io.crater.job;

import io.crater.account.AccountService;
import io.crater.cluster.ClusterCache;
import io.crater.identity.Caller;
import io.crater.identity.UserService;
import io.crater.job.JobViews.JobSummary;
import io.crater.platform.ApiException;
import io.crater.platform.Json;
import io.crater.platform.Page;
import io.crater.platform.Problem;
import io.crater.platform.Sql;
import io.crater.policy.Quantities;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** Reading jobs: the list (keyset-paginated, filtered, an index walk per account) and the detail. */
@ApplicationScoped
public class JobQueries {

    /** The columns of {@link JobSummaryRow} before its requests, which a statement adds as one JSON text. */
    static final String SUMMARY_COLUMNS_BEFORE_REQUESTS =
            " SELECT j.id, j.public_id, j.name, j.kind, j.state, j.borrowing, CAST(j.reasons AS text),"
                    + " j.created_at, j.started_at, j.finished_at, j.user_id, j.account_id";

    static final String SUMMARY_COLUMNS = SUMMARY_COLUMNS_BEFORE_REQUESTS
            + ", CAST((SELECT jsonb_object_agg(q.resource, q.milli) FROM job_requests q WHERE q.job_id = j.id)"
            + " AS text)";
    static final String SUMMARY = SUMMARY_COLUMNS + " FROM jobs j";

    static final Set<String> STATES = Set.of(
            "Queued", "Admitted", "Pending", "Running", "Stopping", "Succeeded", "Failed", "Stopped", "Rejected");

    @Inject
    ClusterCache cache;

    @Inject
    io.crater.cluster.AcceleratorCatalogue catalogue;

    @Inject
    JobKubeEvents kubeEvents;

    @Inject
    io.crater.assets.AssetMounts assetMounts;

    @Inject
    AccountService accounts;

    @Inject
    UserService users;

    @Inject
    io.crater.identity.UserDirectory people;

    /** Filters of the job list; every one optional. */
    public record Filter(
            String account,
            String state,
            String kind,
            String model,
            String owner,
            boolean mine,
            String since,
            String until,
            String sort,
            String cursor,
            Integer limit) {}

    /** A visible job: its summary row and whether the caller owns it or administers its account. */
    record Visible(JobSummaryRow row, boolean member, boolean owner, boolean accountAdmin, boolean platformAdmin) {
        long id() {
            return row.id();
        }

        String state() {
            return row.state();
        }

        /** Owner, an admin of the job's account, or a platform admin. */
        boolean mayAct() {
            return owner || accountAdmin || platformAdmin;
        }
    }

    JobSummary summaryOf(JobSummaryRow r) {
        Map<String, String> req = new TreeMap<>();
        r.requests().forEach((resource, milli) -> req.put(resource, Quantities.format(milli)));
        return new JobSummary(
                r.publicId(),
                r.name(),
                r.kind(),
                r.state(),
                r.account(),
                r.owner(),
                req,
                r.borrowing(),
                r.reasons(),
                r.createdAt(),
                r.startedAt(),
                r.finishedAt());
    }

    /** One request of a job: milli-units of one resource. */
    record RequestRow(long jobId, String resource, long milli) {
        static RequestRow of(Object[] r) {
            return new RequestRow(Sql.longOf(r[0]), (String) r[1], Sql.longOf(r[2]));
        }
    }

    /** The rows with their account's slug and their owner's username, read through those features. */
    Uni<List<JobSummaryRow>> named(List<JobSummaryRow> rows) {
        if (rows.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        Set<Long> accountIds = new java.util.HashSet<>();
        Set<Long> userIds = new java.util.HashSet<>();
        rows.forEach(r -> {
            accountIds.add(r.accountId());
            userIds.add(r.userId());
        });
        return accounts.slugs(accountIds)
                .flatMap(slugs -> users.usernames(userIds)
                        .map(names -> rows.stream()
                                .map(r -> r.named(slugs.get(r.accountId()), names.get(r.userId())))
                                .toList()));
    }

    Uni<JobSummary> summary(String publicId) {
        return Sql.row(SUMMARY + " WHERE j.public_id = ?1", publicId).flatMap(r -> {
            JobSummaryRow found = JobSummaryRow.of(r.orElseThrow(() -> ApiException.notFound("no job " + publicId)));
            return named(List.of(found)).map(rows -> summaryOf(rows.get(0)));
        });
    }

    public Uni<Page<JobSummary>> list(Caller caller, Filter f) {
        int n = Page.limit(f.limit());
        boolean ascending = "created".equals(f.sort());
        if (f.sort() != null && !f.sort().isBlank() && !ascending && !"-created".equals(f.sort())) {
            throw ApiException.badRequest(
                    "InvalidRequest",
                    "sort is created or -created",
                    List.of(new Problem.FieldError("sort", "created or -created")));
        }
        long cursor = f.cursor() == null || f.cursor().isBlank()
                ? (ascending ? 0 : Long.MAX_VALUE)
                : Page.afterId(f.cursor());
        String order = ascending ? "ASC" : "DESC";
        return ownerId(f)
                .flatMap(owner -> accounts.listable(caller, f.account()).flatMap(accounts -> {
                    List<Object> params = new ArrayList<>();
                    String where = conditions(caller, f, cursor, ascending, params, modelKeys(), owner);
                    if (accounts != null && accounts.isEmpty()) {
                        return Uni.createFrom().item(new Page<JobSummary>(List.of(), null));
                    }
                    // One index walk per account (jobs_account_*), merged: fast at any size, whatever the filters.
                    String branches = accounts == null
                            ? "(SELECT j.id FROM jobs j WHERE " + where + " ORDER BY j.id " + order + " LIMIT "
                                    + (n + 1) + ")"
                            : String.join(
                                    " UNION ALL ",
                                    accounts.stream()
                                            .map(a -> "(SELECT j.id FROM jobs j WHERE j.account_id = " + a + " AND "
                                                    + where + " ORDER BY j.id " + order + " LIMIT " + (n + 1) + ")")
                                            .toList());
                    return Sql.rows(pageSql(branches, order, n), params.toArray())
                            .flatMap(rows -> page(rows, n));
                }));
    }

    /** The page of these rows (one more than shown when there is a next page), in the list's order. */
    private Uni<Page<JobSummary>> page(List<Object[]> found, int n) {
        List<JobSummaryRow> rows = found.subList(0, Math.min(n, found.size())).stream()
                .map(JobSummaryRow::of)
                .toList();
        return named(rows)
                .map(shown -> new Page<>(
                        shown.stream().map(this::summaryOf).toList(),
                        found.size() > n
                                ? Long.toString(shown.get(shown.size() - 1).id())
                                : null));
    }

    /** The owner filter's user id: null without one, 0 (nobody's) for a username nobody has. */
    private Uni<Long> ownerId(Filter f) {
        if (f.mine() || f.owner() == null || f.owner().isBlank()) {
            return Uni.createFrom().nullItem();
        }
        return people.byName(f.owner().trim())
                .map(p -> p.map(io.crater.identity.UserDirectory.Person::id).orElse(0L));
    }

    /** The query that picks a page of the list (the part that grows with the table), for the index test. */
    String listSql(Caller caller, Filter f, List<Long> accounts, List<Object> params) {
        String where = conditions(caller, f, Long.MAX_VALUE, false, params, modelKeys(), null);
        return pageSql(
                String.join(
                        " UNION ALL ",
                        accounts.stream()
                                .map(a -> "(SELECT j.id FROM jobs j WHERE j.account_id = " + a + " AND " + where
                                        + " ORDER BY j.id DESC LIMIT 51)")
                                .toList()),
                "DESC",
                50);
    }

    /**
     * A page's rows in one statement: first the page's ids (one more than shown, for the next page's cursor) from the
     * index walks, materialised, then their rows by primary key: two plans that cannot go wrong whatever the
     * statistics say.
     */
    private static String pageSql(String branches, String order, int n) {
        return "WITH page AS MATERIALIZED (SELECT page.id FROM (" + branches + ") page ORDER BY page.id " + order
                + " LIMIT " + (n + 1) + ") " + SUMMARY + " WHERE j.id IN (SELECT id FROM page) ORDER BY j.id " + order;
    }

    private Set<String> modelKeys() {
        return catalogue.models().stream()
                .map(io.crater.cluster.AcceleratorModel::key)
                .collect(java.util.stream.Collectors.toSet());
    }

    /** The list's conditions; {@code owner} is the owner filter's user id (null: none). */
    private static String conditions(
            Caller caller,
            Filter f,
            long cursor,
            boolean ascending,
            List<Object> params,
            Set<String> models,
            Long owner) {
        List<Problem.FieldError> errors = new ArrayList<>();
        StringBuilder w = new StringBuilder("j.deleted_at IS NULL");
        params.add(cursor);
        w.append(" AND j.id ").append(ascending ? ">" : "<").append(" ?").append(params.size());
        if (f.state() != null && !f.state().isBlank()) {
            if (!STATES.contains(f.state())) {
                errors.add(new Problem.FieldError(
                        "state",
                        "one of " + String.join(", ", STATES.stream().sorted().toList())));
            }
            params.add(f.state());
            w.append(" AND j.state = ?").append(params.size());
        }
        if (f.kind() != null && !f.kind().isBlank()) {
            if (JobKind.of(f.kind()).isEmpty()) {
                errors.add(new Problem.FieldError("kind", "one of jupyter, webide, custom, pytorch, inference"));
            }
            params.add(f.kind());
            w.append(" AND j.kind = ?").append(params.size());
        }
        if (f.model() != null && !f.model().isBlank()) {
            if (!models.contains(f.model().trim())) {
                errors.add(new Problem.FieldError("model", "not an accelerator model of the catalogue"));
            }
            params.add(f.model().trim());
            w.append(" AND EXISTS (SELECT 1 FROM job_requests r WHERE r.job_id = j.id AND r.resource = ?")
                    .append(params.size())
                    .append(" AND r.milli > 0)");
        }
        if (f.mine()) {
            params.add(caller.userId());
            w.append(" AND j.user_id = ?").append(params.size());
        } else if (owner != null) {
            params.add(owner);
            w.append(" AND j.user_id = ?").append(params.size());
        }
        Instant since = instant(f.since(), "since", errors);
        if (since != null) {
            params.add(since);
            w.append(" AND j.created_at >= ?").append(params.size());
        }
        Instant until = instant(f.until(), "until", errors);
        if (until != null) {
            params.add(until);
            w.append(" AND j.created_at < ?").append(params.size());
        }
        if (!errors.isEmpty()) {
            throw ApiException.badRequest("InvalidRequest", "the filters are not valid", errors);
        }
        return w.toString();
    }

    private static Instant instant(String value, String field, List<Problem.FieldError> errors) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return Instant.parse(value.trim());
        } catch (DateTimeParseException e) {
            errors.add(new Problem.FieldError(field, "an ISO-8601 instant such as 2026-11-30T00:00:00Z"));
            return null;
        }
    }

    /** Whose a job is: its account and its owner. */
    public record Holder(long accountId, long userId) {
        static Holder of(Object[] r) {
            return new Holder(Sql.longOf(r[0]), Sql.longOf(r[1]));
        }
    }

    /** {@link Holder} of the job (empty: no such job), in the caller's session and transaction. */
    public Uni<java.util.Optional<Holder>> holder(String publicId) {
        return Sql.row("SELECT account_id, user_id FROM jobs WHERE public_id = ?1", publicId)
                .map(r -> r.map(Holder::of));
    }

    /** The job if the caller may see it (a member of its account, or a platform admin), in the caller's session. */
    Uni<Visible> visible(String publicId, Caller caller) {
        if (!JobNames.isPublicId(publicId)) {
            return Uni.createFrom().failure(ApiException.notFound("no job " + publicId));
        }
        return Sql.row(SUMMARY + " WHERE j.public_id = ?1 AND j.deleted_at IS NULL", publicId)
                .map(r -> JobSummaryRow.of(r.orElseThrow(() -> ApiException.notFound("no job " + publicId))))
                .flatMap(job -> accounts.roleOf(job.accountId(), caller.userId())
                        .flatMap(role -> {
                            if (role.isEmpty() && !caller.platformAdmin()) {
                                throw ApiException.forbidden(
                                        "NotAMember", "this job belongs to an account you are not a member of");
                            }
                            return named(List.of(job))
                                    .map(rows -> new Visible(
                                            rows.get(0),
                                            role.isPresent(),
                                            job.userId() == caller.userId(),
                                            role.map("admin"::equals).orElse(false),
                                            caller.platformAdmin()));
                        }));
    }

    public Uni<JobViews.JobDetail> detail(String publicId, Caller caller) {
        return visible(publicId, caller).flatMap(v -> {
            long id = v.id();
            return Sql.rows(
                            "SELECT at, from_state, to_state, reason, message, CAST(args AS text) FROM job_transitions"
                                    + " WHERE job_id = ?1 ORDER BY id",
                            id)
                    .flatMap(hist -> Sql.rows(
                                    "SELECT CAST(j.spec AS text), j.state_reason, j.state_message, t.public_id, j.template_version,"
                                            + " (SELECT tv.name FROM job_template_versions tv WHERE tv.template_id = j.template_id AND tv.version = j.template_version),"
                                            + " s.public_id FROM jobs j LEFT JOIN job_templates t ON t.id = j.template_id"
                                            + " LEFT JOIN jobs s ON s.id = j.source_job_id WHERE j.id = ?1",
                                    id)
                            .flatMap(extra -> Sql.rows(
                                            "SELECT pod, container, exit_code, reason, message FROM job_archives WHERE job_id = ?1 ORDER BY pod, container",
                                            id)
                                    .flatMap(exits -> archivedEvents(id)
                                            .flatMap(events -> assetMounts
                                                    .of(id)
                                                    .map(mounts -> detailOf(
                                                            v,
                                                            summaryOf(v.row()),
                                                            hist,
                                                            extra.get(0),
                                                            exits,
                                                            events,
                                                            mounts))))));
        });
    }

    private Uni<List<JobViews.JobEvent>> archivedEvents(long jobId) {
        return Sql.rows(
                        "SELECT at, type, reason, object, message, count FROM job_events WHERE job_id = ?1 ORDER BY at, id",
                        jobId)
                .map(rows -> rows.stream()
                        .map(e -> new JobViews.JobEvent(
                                Sql.instant(e[0]),
                                (String) e[1],
                                (String) e[2],
                                (String) e[3],
                                (String) e[4],
                                ((Number) e[5]).intValue()))
                        .toList());
    }

    private JobViews.JobDetail detailOf(
            Visible v,
            JobSummary summary,
            List<Object[]> hist,
            Object[] extra,
            List<Object[]> exits,
            List<JobViews.JobEvent> archived,
            List<io.crater.assets.AssetMounts.Mount> mounts) {
        String publicId = summary.id();
        List<JobViews.JobEvent> live = kubeEvents.live(publicId);
        boolean finished = JobRow.terminal(summary.state());
        return new JobViews.JobDetail(
                summary,
                Json.read((String) extra[0]),
                blank((String) extra[1]),
                blank((String) extra[2]),
                JobHistory.of(hist, summary.borrowing(), summary.reasons()),
                extra[3] == null
                        ? null
                        : new JobViews.TemplateLink(
                                (String) extra[3], ((Number) extra[4]).intValue(), (String) extra[5]),
                (String) extra[6],
                JobPods.of(
                        cache.podsOfJob(publicId),
                        summary.requests().keySet().stream()
                                .filter(k -> !k.equals("cpu") && !k.equals("memory"))
                                .findFirst()
                                .orElse(null)),
                live.isEmpty() ? archived : live,
                exits.stream()
                        .map(e -> new JobViews.ContainerExit(
                                (String) e[0],
                                (String) e[1],
                                e[2] == null || ((Number) e[2]).intValue() < 0 ? null : ((Number) e[2]).intValue(),
                                blank((String) e[3]),
                                blank((String) e[4])))
                        .toList(),
                new JobViews.Permissions(
                        !finished && v.mayAct(), finished && v.mayAct(), v.mayAct(), v.owner() || v.member()),
                mounts);
    }

    static String blank(String s) {
        return s == null || s.isEmpty() ? null : s;
    }

    /** Whether a failure is the unique index on (user, idempotency key): a retry that raced the first insert. */
    static boolean idempotencyTaken(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof io.vertx.pgclient.PgException pg && "23505".equals(pg.getSqlState())
                    || t instanceof org.hibernate.exception.ConstraintViolationException c
                            && "jobs_idempotency".equals(c.getConstraintName())
                    || String.valueOf(t.getMessage()).contains("\"jobs_idempotency\"")) {
                return true;
            }
        }
        return false;
    }
}
