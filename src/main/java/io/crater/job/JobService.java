package io.crater.job;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.crater.account.AccountTargets;
import io.crater.account.QuotaService;
import io.crater.assets.AssetMounts;
import io.crater.assets.AssetMounts.Resolved;
import io.crater.audit.AuditService;
import io.crater.cluster.AcceleratorCatalogue;
import io.crater.cluster.ClusterCache;
import io.crater.identity.Caller;
import io.crater.job.JobViews.JobSummary;
import io.crater.platform.ApiException;
import io.crater.platform.Json;
import io.crater.platform.Problem;
import io.crater.platform.Sql;
import io.crater.policy.Admission;
import io.crater.policy.NodeCapacity;
import io.crater.policy.QuotaMath;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** Submitting, listing, reading and stopping jobs. Admission itself runs on the leader (io.crater.admission). */
@ApplicationScoped
public class JobService {

    private static final org.jboss.logging.Logger LOG = org.jboss.logging.Logger.getLogger(JobService.class);

    @Inject
    AcceleratorCatalogue catalogue;

    @Inject
    JobQueries queries;

    @Inject
    JobStops stops;

    @Inject
    TemplateService templates;

    @Inject
    JobsConfig config;

    @Inject
    ClusterCache cache;

    @Inject
    QuotaService quotas;

    @Inject
    AuditService audit;

    @Inject
    java.time.Clock clock;

    @Inject
    AccountTargets targets;

    @Inject
    ModelAccess modelAccess;

    @Inject
    io.crater.credential.CredentialService credentials;

    @Inject
    AssetMounts assetMounts;

    @Inject
    FeatureService features;

    @Inject
    JobObjects objects;

    /** The account a job is submitted to, checked, with its time limits and what its members may use. */
    private record Target(
            long id,
            String slug,
            String kind,
            Instant expiresAt,
            JobSpecs.TimeLimits limits,
            boolean accountAdmin,
            FeatureService.EffectiveFeatures features) {}

    /** A submission made ready: the spec, where it came from, what another feature writes with its id (or null). */
    private record Prepared(
            JobViews.SubmitJob spec,
            Long templateId,
            Integer templateVersion,
            Long sourceJobId,
            Function<Long, Uni<Void>> link) {

        Uni<Void> linkTo(long jobId) {
            return link == null ? Uni.createFrom().voidItem() : link.apply(jobId);
        }

        /** Whether another feature writes a row with the job's id. */
        boolean links() {
            return link != null;
        }
    }

    private record Decided(Admission.Decision decision, List<Resolved> mounts) {}

    /** A submission answered from an earlier one with the same idempotency key: the job it created. */
    public record Replayed(JobSummary job) {}

    public Uni<Object> submit(JobViews.SubmitJob req, String accountHeader, boolean dryRun, Caller caller) {
        return submit(req, accountHeader, dryRun, null, caller);
    }

    /**
     * Submits a job. With an idempotency key, a retry of the same request by the same user answers the job the
     * first one created ({@link Replayed}) and creates nothing; the key with a different request is 422.
     */
    public Uni<Object> submit(
            JobViews.SubmitJob req, String accountHeader, boolean dryRun, String idempotencyKey, Caller caller) {
        if (req == null) {
            throw ApiException.badRequest(
                    "InvalidJob", "a job body is required", List.of(new Problem.FieldError("body", "required")));
        }
        JobSpecs.refuseDownload(req.kind());
        Idempotency idem = Idempotency.of(idempotencyKey, req, accountHeader);
        if (idem != null && !dryRun) {
            return Panache.withSession(() -> replay(idem, caller))
                    .flatMap(found -> found != null
                            ? Uni.createFrom().item(found)
                            : submitOnce(req, accountHeader, false, idem, caller, null)
                                    .onFailure(JobQueries::idempotencyTaken)
                                    .recoverWithUni(e -> Panache.withSession(() -> replay(idem, caller))
                                            .map(again -> {
                                                if (again == null) {
                                                    throw new IllegalStateException(e);
                                                }
                                                return again;
                                            })));
        }
        return submitOnce(req, accountHeader, dryRun, null, caller, null);
    }

    /** Submits a job a feature starts itself (a download's, an image build's), with nothing linked to it. */
    public Uni<JobSummary> submitOwn(JobViews.SubmitJob req, String accountHeader, Caller caller) {
        return submitLinked(req, accountHeader, caller, id -> Uni.createFrom().voidItem());
    }

    /** The job an earlier submission with this key created, or null; 422 when it came with another request. */
    private Uni<Object> replay(Idempotency idem, Caller caller) {
        return Sql.rows(
                        "SELECT public_id, request_hash FROM jobs WHERE user_id = ?1 AND idempotency_key = ?2",
                        caller.userId(),
                        idem.key())
                .flatMap(rows -> {
                    if (rows.isEmpty()) {
                        return Uni.createFrom().nullItem();
                    }
                    if (!idem.hash().equals(rows.get(0)[1])) {
                        throw new ApiException(
                                422,
                                "IdempotencyKeyReused",
                                "Unprocessable",
                                "this Idempotency-Key was used for a different submission (job " + rows.get(0)[0] + ")",
                                null,
                                null,
                                null);
                    }
                    return queries.summary((String) rows.get(0)[0]).map(Replayed::new);
                });
    }

    /**
     * Submits a job another feature made for the caller (a TensorBoard panel's server), checked and admitted like
     * any; {@code link} runs with its id in the insert's transaction. Such kinds are refused from {@link #submit}.
     */
    public Uni<JobSummary> submitLinked(
            JobViews.SubmitJob req, String accountHeader, Caller caller, Function<Long, Uni<Void>> link) {
        return submitOnce(req, accountHeader, false, null, caller, link).map(o -> (JobSummary) o);
    }

    private Uni<Object> submitOnce(
            JobViews.SubmitJob req,
            String accountHeader,
            boolean dryRun,
            Idempotency idem,
            Caller caller,
            Function<Long, Uni<Void>> link) {
        // The insert's NOTIFY on crater_admission wakes the admission leader, on whichever replica it runs.
        return Panache.withSession(() -> target(accountHeader, caller)
                .flatMap(t -> prepare(req, t, caller)
                        .flatMap(p -> admit(
                                new Prepared(p.spec(), p.templateId(), p.templateVersion(), p.sourceJobId(), link),
                                t,
                                dryRun,
                                idem,
                                caller))));
    }

    /** Renders the template when one is named (fields given beside it win) and links the source job. */
    private Uni<Prepared> prepare(JobViews.SubmitJob req, Target t, Caller caller) {
        Uni<Long> source = req.sourceJob() == null || req.sourceJob().isBlank()
                ? Uni.createFrom().nullItem()
                : queries.visible(req.sourceJob().trim(), caller).map(JobQueries.Visible::id);
        if (req.template() == null) {
            return source.map(s -> new Prepared(req, null, null, s, null));
        }
        return templates
                .resolve(req.template(), caller)
                .flatMap(r -> source.map(s -> {
                    ObjectNode merged = (ObjectNode) Json.tree(r.spec());
                    Json.tree(req).fields().forEachRemaining(e -> {
                        if (!e.getValue().isNull()) {
                            merged.set(e.getKey(), e.getValue());
                        }
                    });
                    JobViews.SubmitJob spec = Json.convert(merged, JobViews.SubmitJob.class)
                            .withLinks(
                                    new JobViews.TemplateRef(r.publicId(), r.version(), r.values()), req.sourceJob());
                    return new Prepared(spec, r.templateId(), r.version(), s, null);
                }));
    }

    private Uni<Object> admit(Prepared p, Target t, boolean dryRun, Idempotency idem, Caller caller) {
        JobSpecs.Checked checked =
                JobSpecs.check(p.spec(), catalogue.models(), config, t.limits()).forAccount(t.id());
        Refusals.requireOwnSubmission(checked.spec().kind(), p.link() != null);
        JobSpecs.requireBuild(checked.spec().kind(), p.link() != null);
        FeatureService.requireSubmission(t.features(), checked.spec().kind(), checked.priority() > 1, t.slug());
        JobSpecs.requireKnownNodes(
                checked.spec().targetNodes(),
                cache.capacities().stream().map(NodeCapacity::name).toList());
        if (checked.priority() > 1 && !t.accountAdmin() && !caller.platformAdmin()) {
            throw ApiException.forbidden(
                    "HighPriorityNeedsAccountAdmin",
                    "only an admin of account '" + t.slug() + "' may submit jobs with high priority");
        }
        // The time limit in force is written down, so later changes of the defaults do not move it.
        JobViews.SubmitJob stored = checked.spec().timeLimit() == null
                ? p.spec()
                : p.spec().withTimeLimit(JobSpecs.format(checked.spec().timeLimit()));
        // A job may reference only its submitter's own credentials.
        return credentials
                .requireOwned(caller.userId(), checked.spec().credentialEnv())
                .flatMap(owned ->
                        assetMounts.resolve(caller, JobMounts.wanted(p.spec().mounts())))
                .flatMap(mounts -> preflight(t, checked, caller, dryRun).map(decision -> new Decided(decision, mounts)))
                .flatMap(d -> {
                    Admission.Decision decision = d.decision();
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
                                objects.dryRun(checked, t.id(), t.slug(), t.kind(), t.features(), caller, d.mounts())));
                    }
                    JobViews.SubmitJob withIds =
                            d.mounts().isEmpty() ? stored : stored.withMounts(JobMounts.byId(d.mounts()));
                    return insert(
                                    new Prepared(
                                            withIds, p.templateId(), p.templateVersion(), p.sourceJobId(), p.link()),
                                    checked,
                                    t,
                                    idem,
                                    caller,
                                    d.mounts())
                            .map(s -> (Object) s);
                });
    }

    private Uni<Target> target(String header, Caller caller) {
        return targets.forSubmission(header, caller.userId()).map(found -> {
            AccountTargets.Target r = found.orElseThrow(
                    () -> ApiException.forbidden("NotAMember", "you are not a member of account '" + header + "'"));
            Refusals.requireActive(r.slug(), r.archivedAt());
            JobSpecs.TimeLimits limits = JobSpecs.TimeLimits.of(config)
                    .narrowedBy(r.interactiveDefault(), r.interactiveMax(), r.batchDefault(), r.batchMax());
            return new Target(
                    r.id(), r.slug(), r.kind(), r.expiresAt(), limits, "admin".equals(r.role()), features.effective(r));
        });
    }

    /**
     * What admission would decide now (a dry run), or only whether the job can ever run (a submission, which waits
     * for admission whatever the quota says now: its usage is not read); rejects at once what can never run.
     */
    private Uni<Admission.Decision> preflight(Target t, JobSpecs.Checked checked, Caller caller, boolean dryRun) {
        if (t.expiresAt() != null && !t.expiresAt().isAfter(clock.instant())) {
            return Uni.createFrom().item(Refusals.reject(Refusals.expired(t.slug(), t.expiresAt())));
        }
        var model = checked.spec().accelerator();
        var entry = model == null ? null : catalogue.model(model.model()).orElse(null);
        if (entry != null && entry.retired()) {
            // A retired model takes no new jobs; those it already has keep running.
            return Uni.createFrom().item(Refusals.reject(Refusals.retired(entry.key(), entry.retiredAt())));
        }
        Uni<Boolean> allowed = entry == null || !entry.restricted()
                ? Uni.createFrom().item(true)
                : modelAccess.granted(t.id(), model.model());
        return allowed.flatMap(ok -> {
            if (!ok) {
                return Uni.createFrom().item(Refusals.reject(Refusals.notApproved(model.model())));
            }
            if (!dryRun) {
                return Uni.createFrom().item(Admission.screen(cache.capacities(), checked.pods()));
            }
            if (checked.backfill()) {
                return Uni.createFrom().item(Admission.decideBackfill(cache.capacities(), checked.pods()));
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

    private Uni<JobSummary> insert(
            Prepared p, JobSpecs.Checked checked, Target t, Idempotency idem, Caller caller, List<Resolved> mounts) {
        String publicId = JobNames.newPublicId();
        JobInputs.Spec s = checked.spec();
        JobInsert statement = JobInsert.of(
                publicId,
                t.id(),
                caller.userId(),
                checked,
                Json.write(p.spec()),
                new JobInsert.Origin(p.templateId(), p.templateVersion(), p.sourceJobId()),
                idem,
                AuditService.entry(
                        caller.actor(t.slug()),
                        "job.submit",
                        "job",
                        publicId,
                        null,
                        Map.of("kind", s.kind().id(), "name", s.displayName())));
        java.util.function.Supplier<Uni<JobSummaryRow>> write =
                () -> Sql.row(statement.sql(), statement.params()).map(r -> JobSummaryRow.of(r.orElseThrow()));
        // Mounts and links are rows of their own, written in the job's transaction; without them the one statement
        // commits alone.
        Uni<JobSummaryRow> written = mounts.isEmpty() && !p.links()
                ? Panache.withSession(write)
                : Panache.withTransaction(() -> write.get()
                        .call(row -> assetMounts.record(row.id(), mounts))
                        .call(row -> p.linkTo(row.id())));
        return written.flatMap(row -> queries.named(List.of(row)).map(rows -> queries.summaryOf(rows.get(0))));
    }

    /** A job as another feature sees it: ids, kind, state and when it started. */
    public record JobRef(
            long id, String publicId, String kind, String state, long accountId, long userId, Instant startedAt) {}

    /** The job if the caller may see it (a member of its account, or a platform admin), in the caller's session. */
    public Uni<JobRef> visible(String publicId, Caller caller) {
        return queries.visible(publicId, caller)
                .map(v -> new JobRef(
                        v.id(),
                        v.row().publicId(),
                        v.row().kind(),
                        v.state(),
                        v.row().accountId(),
                        v.row().userId(),
                        v.row().startedAt()));
    }

    /** A job's state (null when there is no such job, or it was deleted), in the caller's session. */
    public Uni<String> state(long jobId) {
        return Sql.strings("SELECT state FROM jobs WHERE id = ?1 AND deleted_at IS NULL", jobId)
                .map(states -> states.isEmpty() ? null : states.get(0));
    }

    /**
     * A new job with the same spec in the same account, owned by the caller (a member of that account), linked
     * to the original and admitted against the quota as it is now.
     */
    public Uni<JobSummary> resubmit(String publicId, JobViews.Resubmit req, Caller caller) {
        Map<String, Object> changes = req == null || req.changes() == null ? Map.of() : req.changes();
        boolean replace = req != null && Boolean.TRUE.equals(req.replace());
        for (String field : changes.keySet()) {
            if (!RESUBMIT_CHANGES.contains(field)) {
                throw ApiException.badRequest(
                        "InvalidChanges",
                        "only " + String.join(", ", RESUBMIT_CHANGES) + " may be changed on resubmitting",
                        List.of(new Problem.FieldError("changes." + field, "cannot be changed here")));
            }
        }
        return Panache.withSession(() -> queries.visible(publicId, caller)
                        .flatMap(v -> Sql.rows(
                                        "SELECT CAST(spec AS text), CAST(gpu_fault AS text) FROM jobs WHERE id = ?1",
                                        v.id())
                                .map(r -> {
                                    if (!v.member()) {
                                        throw ApiException.forbidden(
                                                "NotAMember", "only members of the job's account may resubmit it");
                                    }
                                    if (replace && !v.mayAct()) {
                                        throw ApiException.forbidden(
                                                "NotJobOwner",
                                                "only the job's owner or an admin of its account may replace it");
                                    }
                                    JobViews.SubmitJob spec = JobFaults.avoidingFault(
                                            Json.read((String) r.get(0)[0], JobViews.SubmitJob.class),
                                            (String) r.get(0)[1]);
                                    return new Object[] {
                                        ResubmitChanges.changed(spec, changes),
                                        v.row().account(),
                                        v.state()
                                    };
                                })))
                .flatMap(x -> {
                    JobViews.SubmitJob spec = (JobViews.SubmitJob) x[0];
                    // The rendered spec is resubmitted as it is: the template's later versions do not change it.
                    JobViews.SubmitJob again = spec.withLinks(null, publicId);
                    Uni<JobSummary> created = submit(again, (String) x[1], false, caller)
                            .flatMap(o -> linkTemplate((JobSummary) o, publicId));
                    return replace && x[2].equals("Queued") ? created.call(s -> stops.stop(publicId, caller)) : created;
                });
    }

    static final List<String> RESUBMIT_CHANGES = List.of(
            "backfill",
            "resources.accelerators",
            "resources.acceleratorModel",
            "resources.cpu",
            "resources.memory",
            "timeLimit",
            "priority");

    /** A resubmitted job keeps the template version of its original. */
    private Uni<JobSummary> linkTemplate(JobSummary created, String originalId) {
        return Panache.withTransaction(() -> Sql.update(
                        "UPDATE jobs j SET template_id = o.template_id, template_version = o.template_version FROM jobs o"
                                + " WHERE j.public_id = ?1 AND o.public_id = ?2",
                        created.id(),
                        originalId))
                .replaceWith(created);
    }

    /** Saves a visible job's spec as a template of the caller's. */
    public Uni<TemplateViews.Template> saveAsTemplate(
            String publicId, TemplateViews.SaveJobAsTemplate req, Caller caller) {
        return Panache.withSession(() -> queries.visible(publicId, caller)
                        .flatMap(v -> Sql.strings("SELECT CAST(spec AS text) FROM jobs WHERE id = ?1", v.id())))
                .flatMap(r -> templates.fromJob(Json.read(r.get(0), JobViews.SubmitJob.class), req, caller));
    }
}
