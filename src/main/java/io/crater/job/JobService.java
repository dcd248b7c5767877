package io.crater.job;

import io.crater.account.QuotaService;
import io.crater.audit.AuditService;
import io.crater.cluster.AcceleratorCatalogue;
import io.crater.cluster.ClusterCache;
import io.crater.cluster.ClusterConfig;
import io.crater.identity.Caller;
import io.crater.job.JobViews.JobSummary;
import io.crater.platform.ApiException;
import io.crater.platform.Json;
import io.crater.platform.Page;
import io.crater.platform.Sql;
import io.crater.policy.Admission;
import io.crater.policy.Quantities;
import io.crater.policy.QuotaMath;
import io.crater.policy.Reason;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Submitting, listing, reading and stopping jobs. Admission itself runs on the leader ({@link AdmissionService}). */
@ApplicationScoped
public class JobService {

    static final String SUMMARY =
            "SELECT j.id, j.public_id, j.name, j.kind, j.state, a.slug, u.username, j.borrowing, CAST(j.reasons AS text),"
                    + " j.created_at, j.started_at, j.finished_at, j.user_id, j.account_id FROM jobs j JOIN accounts a ON a.id = j.account_id"
                    + " JOIN users u ON u.id = j.user_id";

    @Inject
    AcceleratorCatalogue catalogue;

    @Inject
    JobsConfig config;

    @Inject
    ClusterConfig cluster;

    @Inject
    ClusterCache cache;

    @Inject
    QuotaService quotas;

    @Inject
    AuditService audit;

    @Inject
    AdmissionService admission;

    @Inject
    JobApplier applier;

    @Inject
    JobLogs logs;

    @Inject
    Vertx vertx;

    /** The account a job is submitted to, checked. */
    private record Target(long id, String slug, String kind, Instant expiresAt) {}

    public Uni<Object> submit(JobViews.SubmitJob req, String accountHeader, boolean dryRun, Caller caller) {
        JobSpecs.Checked checked = JobSpecs.check(req, catalogue.models(), config);
        return Panache.withSession(() -> target(accountHeader, caller)
                        .flatMap(t -> preflight(t, checked, caller).flatMap(decision -> {
                            if (decision.kind() == Admission.Kind.REJECT) {
                                throw new ApiException(
                                        422,
                                        "JobRejected",
                                        "Unprocessable",
                                        decision.reasons().get(0).message(),
                                        decision.reasons(),
                                        null,
                                        null);
                            }
                            if (dryRun) {
                                return Uni.createFrom().item((Object) new JobViews.DryRun(
                                        decision.kind().name(),
                                        decision.reasons(),
                                        decision.borrowing(),
                                        manifests(checked, t, caller)));
                            }
                            return insert(req, checked, t, caller).map(s -> (Object) s);
                        })))
                .invoke(o -> {
                    if (o instanceof JobSummary) {
                        admission.wake();
                    }
                });
    }

    private Uni<Target> target(String header, Caller caller) {
        String sql = header == null || header.isBlank()
                ? "SELECT a.id, a.slug, a.kind, a.expires_at FROM accounts a JOIN users u ON u.default_account_id = a.id WHERE u.id = ?1"
                : "SELECT a.id, a.slug, a.kind, a.expires_at FROM accounts a JOIN account_members m ON m.account_id = a.id WHERE m.user_id = ?1 AND a.slug = ?2";
        Object[] params = header == null || header.isBlank()
                ? new Object[] {caller.userId()}
                : new Object[] {caller.userId(), header.trim()};
        return Sql.rows(sql, params).map(rows -> {
            if (rows.isEmpty()) {
                throw ApiException.forbidden("NotAMember", "you are not a member of account '" + header + "'");
            }
            Object[] r = rows.get(0);
            return new Target(Sql.longOf(r[0]), (String) r[1], (String) r[2], Sql.instant(r[3]));
        });
    }

    /** What admission would decide now; rejects at once what can never run. */
    private Uni<Admission.Decision> preflight(Target t, JobSpecs.Checked checked, Caller caller) {
        if (t.expiresAt() != null && !t.expiresAt().isAfter(Instant.now())) {
            return Uni.createFrom()
                    .item(new Admission.Decision(
                            Admission.Kind.REJECT,
                            List.of(new Reason(
                                    "AccountExpired",
                                    "account '" + t.slug() + "' expired at " + t.expiresAt()
                                            + "; no new jobs start in it",
                                    Map.of())),
                            List.of(),
                            Map.of()));
        }
        var model = checked.spec().accelerator();
        Uni<Boolean> allowed = model == null
                        || catalogue.models().stream().noneMatch(m -> m.key().equals(model.model()) && m.restricted())
                ? Uni.createFrom().item(true)
                : Sql.count(
                                "SELECT count(*) FROM approvals WHERE kind = 'model-access' AND state = 'approved' AND account_id = ?1 AND model = ?2",
                                t.id(),
                                model.model())
                        .map(n -> n > 0);
        return allowed.flatMap(ok -> {
            if (!ok) {
                return Uni.createFrom()
                        .item(new Admission.Decision(
                                Admission.Kind.REJECT,
                                List.of(new Reason(
                                        "ModelNotApproved",
                                        "'" + model.model()
                                                + "' is restricted: ask for access in this account first (Approvals)",
                                        Map.of())),
                                List.of(),
                                Map.of()));
            }
            return quotas.snapshot(t.id())
                    .flatMap(lines -> quotas.effectiveLimits(t.id(), caller.userId())
                            .map(limits -> Admission.decide(
                                    lines,
                                    limits,
                                    QuotaMath.MemberUsage.NONE,
                                    checked.quotaRequest(),
                                    checked.spec().kind().interactive(),
                                    cache.capacities(),
                                    checked.pods())));
        });
    }

    private String manifests(JobSpecs.Checked checked, Target t, Caller caller) {
        JobInputs.Spec spec = checked.spec().withPublicId("jdryrun0");
        JobInputs.Owner owner = new JobInputs.Owner(
                t.id(), t.slug(), false, caller.userId(), caller.user().username(), 0, 0);
        String queue = "personal".equals(t.kind()) ? "crater-personal" : "crater-" + t.slug();
        JobManifests.Manifests m = JobManifests.build(
                spec,
                owner,
                new JobInputs.Placement(cluster.namespace(), queue, config.sharedClaim(), config.ttlAfterFinished()),
                "<generated at start>");
        StringBuilder yaml = new StringBuilder(Serialization.asYaml(m.volcanoJob()));
        for (HasMetadata o : m.companions()) {
            yaml.append(Serialization.asYaml(o));
        }
        return yaml.toString();
    }

    private Uni<JobSummary> insert(JobViews.SubmitJob req, JobSpecs.Checked checked, Target t, Caller caller) {
        String publicId = JobNames.newPublicId();
        JobInputs.Spec s = checked.spec();
        return Panache.withTransaction(() -> Sql.insertReturningId(
                                "INSERT INTO jobs (public_id, account_id, user_id, name, kind, interactive, state, spec, priority)"
                                        + " VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'Queued', CAST(CAST(?7 AS text) AS jsonb), ?8) RETURNING id",
                                publicId,
                                t.id(),
                                caller.userId(),
                                s.displayName(),
                                s.kind().id(),
                                s.kind().interactive(),
                                Json.write(req),
                                checked.priority())
                        .call(id -> {
                            Uni<Void> chain = Uni.createFrom().voidItem();
                            for (var e : checked.quotaRequest().amounts().entrySet()) {
                                chain = chain.flatMap(v -> Sql.update(
                                                "INSERT INTO job_requests (job_id, resource, milli) VALUES (?1, ?2, ?3)",
                                                id,
                                                e.getKey(),
                                                e.getValue())
                                        .replaceWithVoid());
                            }
                            return chain;
                        })
                        .call(id -> Sql.update(
                                "INSERT INTO job_transitions (job_id, from_state, to_state, reason, message) VALUES (?1, '', 'Queued', 'Submitted', '')",
                                id))
                        .call(id -> Sql.count(
                                "SELECT count(*) FROM (SELECT pg_notify('crater_admission', ?1)) AS n", publicId))
                        .call(id -> audit.record(
                                caller.actor(t.slug()),
                                "job.submit",
                                "job",
                                publicId,
                                null,
                                Map.of("kind", s.kind().id(), "name", s.displayName()))))
                .flatMap(id -> summary(publicId));
    }

    Uni<JobSummary> summary(String publicId) {
        return Panache.withSession(() -> Sql.row(SUMMARY + " WHERE j.public_id = ?1", publicId))
                .map(r -> r.map(row -> summaryOf(row, List.of()))
                        .orElseThrow(() -> ApiException.notFound("no job " + publicId)));
    }

    private JobSummary summaryOf(Object[] r, List<Object[]> requests) {
        Map<String, String> req = new TreeMap<>();
        requests.forEach(q -> req.put((String) q[0], Quantities.format(Sql.longOf(q[1]))));
        List<Reason> reasons = r[8] == null ? List.of() : List.of(Json.read((String) r[8], Reason[].class));
        return new JobSummary(
                (String) r[1],
                (String) r[2],
                (String) r[3],
                (String) r[4],
                (String) r[5],
                (String) r[6],
                req,
                (Boolean) r[7],
                reasons,
                Sql.instant(r[9]),
                Sql.instant(r[10]),
                Sql.instant(r[11]));
    }

    public Uni<Page<JobSummary>> list(Caller caller, String account, String state, String cursor, Integer limit) {
        int n = Page.limit(limit);
        long before = cursor == null || cursor.isBlank() ? Long.MAX_VALUE : Page.afterId(cursor);
        StringBuilder sql = new StringBuilder(SUMMARY + " WHERE j.id < ?1");
        List<Object> params = new ArrayList<>(List.of(before));
        if (!caller.platformAdmin()) {
            params.add(caller.userId());
            sql.append(
                            " AND EXISTS (SELECT 1 FROM account_members m WHERE m.account_id = j.account_id AND m.user_id = ?")
                    .append(params.size())
                    .append(')');
        }
        if (account != null && !account.isBlank()) {
            params.add(account);
            sql.append(" AND a.slug = ?").append(params.size());
        }
        if (state != null && !state.isBlank()) {
            params.add(state);
            sql.append(" AND j.state = ?").append(params.size());
        }
        sql.append(" ORDER BY j.id DESC LIMIT ").append(n + 1);
        return Panache.withSession(() -> Sql.rows(sql.toString(), params.toArray())
                .flatMap(rows -> {
                    List<Object[]> shown = rows.size() > n ? rows.subList(0, n) : rows;
                    if (shown.isEmpty()) {
                        return Uni.createFrom().item(new Page<JobSummary>(List.of(), null));
                    }
                    StringBuilder in = new StringBuilder();
                    List<Object> ids = new ArrayList<>();
                    for (Object[] r : shown) {
                        ids.add(Sql.longOf(r[0]));
                        in.append(in.isEmpty() ? "" : ", ").append('?').append(ids.size());
                    }
                    return Sql.rows(
                                    "SELECT job_id, resource, milli FROM job_requests WHERE job_id IN (" + in + ")",
                                    ids.toArray())
                            .map(req -> {
                                Map<Long, List<Object[]>> byJob = new java.util.HashMap<>();
                                req.forEach(q -> byJob.computeIfAbsent(Sql.longOf(q[0]), k -> new ArrayList<>())
                                        .add(new Object[] {q[1], q[2]}));
                                List<JobSummary> items = shown.stream()
                                        .map(r -> summaryOf(r, byJob.getOrDefault(Sql.longOf(r[0]), List.of())))
                                        .toList();
                                return new Page<>(
                                        items,
                                        rows.size() > n
                                                ? Long.toString(Sql.longOf(shown.get(shown.size() - 1)[0]))
                                                : null);
                            });
                }));
    }

    public Uni<JobViews.JobDetail> get(String publicId, Caller caller) {
        return Panache.withSession(() -> visible(publicId, caller)
                .flatMap(r -> Sql.rows("SELECT resource, milli FROM job_requests WHERE job_id = ?1", Sql.longOf(r[0]))
                        .flatMap(req -> Sql.rows(
                                        "SELECT at, from_state, to_state, reason, message FROM job_transitions WHERE job_id = ?1 ORDER BY id",
                                        Sql.longOf(r[0]))
                                .flatMap(hist -> Sql.rows(
                                                "SELECT CAST(spec AS text), state_reason, state_message FROM jobs WHERE id = ?1",
                                                Sql.longOf(r[0]))
                                        .map(extra -> new JobViews.JobDetail(
                                                summaryOf(r, req),
                                                Json.read((String) extra.get(0)[0]),
                                                blank((String) extra.get(0)[1]),
                                                blank((String) extra.get(0)[2]),
                                                hist.stream()
                                                        .map(h -> new JobViews.Transition(
                                                                Sql.instant(h[0]),
                                                                blank((String) h[1]),
                                                                (String) h[2],
                                                                blank((String) h[3]),
                                                                blank((String) h[4])))
                                                        .toList()))))));
    }

    /** The job's summary row if the caller may see it: a member of its account, or a platform admin. */
    private Uni<Object[]> visible(String publicId, Caller caller) {
        if (!JobNames.isPublicId(publicId)) {
            return Uni.createFrom().failure(ApiException.notFound("no job " + publicId));
        }
        return Sql.row(SUMMARY + " WHERE j.public_id = ?1", publicId).flatMap(r -> {
            Object[] row = r.orElseThrow(() -> ApiException.notFound("no job " + publicId));
            if (caller.platformAdmin()) {
                return Uni.createFrom().item(row);
            }
            return Sql.count(
                            "SELECT count(*) FROM account_members WHERE account_id = ?1 AND user_id = ?2",
                            Sql.longOf(row[13]),
                            caller.userId())
                    .map(n -> {
                        if (n == 0) {
                            throw ApiException.forbidden(
                                    "NotAMember", "this job belongs to an account you are not a member of");
                        }
                        return row;
                    });
        });
    }

    /** Stops a job: its owner, an admin of its account, or a platform admin. */
    public Uni<JobSummary> stop(String publicId, Caller caller) {
        return Panache.withTransaction(() -> visible(publicId, caller)
                        .flatMap(row -> Sql.count(
                                        "SELECT count(*) FROM account_members WHERE account_id = ?1 AND user_id = ?2 AND role = 'admin'",
                                        Sql.longOf(row[13]),
                                        caller.userId())
                                .flatMap(admins -> {
                                    if (Sql.longOf(row[12]) != caller.userId()
                                            && admins == 0
                                            && !caller.platformAdmin()) {
                                        throw ApiException.forbidden(
                                                "NotJobOwner",
                                                "only the job's owner or an admin of its account may stop it");
                                    }
                                    long id = Sql.longOf(row[0]);
                                    String state = (String) row[4];
                                    if (JobRow.terminal(state)) {
                                        throw new ApiException(
                                                409,
                                                "JobFinished",
                                                "Conflict",
                                                "the job is " + state + " already",
                                                null,
                                                null,
                                                null);
                                    }
                                    Uni<Void> move = state.equals("Queued")
                                            ? JobStates.move(
                                                    id, state, "Stopped", "Stopped", "stopped before it was admitted")
                                            : state.equals("Stopping")
                                                    ? Uni.createFrom().voidItem()
                                                    : JobStates.move(
                                                            id,
                                                            state,
                                                            "Stopping",
                                                            "StopRequested",
                                                            "stop asked by "
                                                                    + caller.user()
                                                                            .username());
                                    return Sql.update("UPDATE jobs SET stop_requested = TRUE WHERE id = ?1", id)
                                            .flatMap(x -> move)
                                            .flatMap(x -> audit.record(
                                                    caller.actor((String) row[5]),
                                                    "job.stop",
                                                    "job",
                                                    publicId,
                                                    Map.of("state", state),
                                                    null))
                                            .replaceWith(state);
                                })))
                .flatMap(state -> state.equals("Queued")
                        ? Uni.createFrom().voidItem()
                        : vertx.executeBlocking(Uni.createFrom().item(() -> {
                                    try {
                                        // What the pods wrote is kept before they go.
                                        logs.archive(publicId);
                                    } catch (Throwable e) {
                                        org.jboss.logging.Logger.getLogger(JobService.class)
                                                .warnf(
                                                        "archiving %s before stopping failed: %s",
                                                        publicId, e.getMessage());
                                    }
                                    applier.delete(publicId);
                                    return null;
                                }))
                                .replaceWithVoid())
                .flatMap(v -> summary(publicId));
    }

    private static String blank(String s) {
        return s == null || s.isEmpty() ? null : s;
    }
}
