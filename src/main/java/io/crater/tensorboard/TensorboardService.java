package io.crater.tensorboard;

import io.crater.identity.Caller;
import io.crater.interactive.AppActivity;
import io.crater.job.JobLookups;
import io.crater.job.JobService;
import io.crater.job.JobStops;
import io.crater.job.JobViews;
import io.crater.platform.ApiException;
import io.crater.platform.AuditTrail;
import io.crater.platform.OnContext;
import io.crater.platform.Problem;
import io.crater.platform.UniqueViolation;
import io.crater.policy.TensorboardPanels;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * TensorBoard panels: a person's named set of log folders, shown by a TensorBoard server that runs as a job of kind
 * {@code tensorboard} in their account (admitted like any job) and is reached on that job's app origin. Panels are
 * personal, like a notebook: only their owner sees or touches one, anyone else gets 404 as for an id nobody has.
 * Stopping or deleting a panel ends its job; the folders' files are never touched.
 */
@ApplicationScoped
public class TensorboardService {

    private static final String ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789";
    private static final SecureRandom RANDOM = new SecureRandom();

    @Inject
    TensorboardQueries queries;

    @Inject
    TensorboardSources sources;

    @Inject
    TensorboardConfig config;

    @Inject
    JobService jobs;

    @Inject
    JobStops stops;

    @Inject
    JobLookups lookups;

    @Inject
    AppActivity activity;

    @Inject
    AuditTrail audit;

    @Inject
    Clock clock;

    static ApiException invalid(List<Problem.FieldError> errors) {
        return ApiException.badRequest("InvalidTensorboard", "the panel cannot be made as given", errors);
    }

    /** Checks, looks up the folders, then submits the server job with the panel written in its transaction. */
    public Uni<TensorboardViews.Tensorboard> create(
            TensorboardViews.CreateTensorboard req, String account, Caller caller) {
        if (req == null) {
            throw invalid(List.of(new Problem.FieldError("body", "required")));
        }
        List<TensorboardPanels.Source> wanted = req.sources() == null
                ? List.of()
                : req.sources().stream()
                        .map(s -> s == null
                                ? null
                                : new TensorboardPanels.Source(
                                        blank(s.space()), blank(s.path()), blank(s.job()), blank(s.name())))
                        .toList();
        List<TensorboardPanels.Refusal> refused = TensorboardPanels.check(req.name(), wanted);
        if (!refused.isEmpty()) {
            throw invalid(refused.stream()
                    .map(r -> new Problem.FieldError(r.field(), r.message()))
                    .toList());
        }
        String publicId = nextId();
        return sources.resolve(caller, wanted)
                .flatMap(found ->
                        OnContext.run(() -> Panache.withSession(() -> queries.nameTaken(caller.userId(), req.name()))
                                .flatMap(taken -> {
                                    if (taken) {
                                        throw nameTaken(req.name());
                                    }
                                    List<TensorboardQueries.SourceRow> rows = new ArrayList<>();
                                    for (int i = 0; i < found.size(); i++) {
                                        TensorboardSources.Found f = found.get(i);
                                        rows.add(new TensorboardQueries.SourceRow(
                                                i, f.name(), f.space(), f.path(), f.job(), f.claimPath()));
                                    }
                                    return jobs.submitLinked(
                                            serverJob(req.name(), found),
                                            account,
                                            caller,
                                            jobId -> queries.insert(publicId, caller.userId(), req.name(), jobId, rows)
                                                    .call(id -> audit.record(
                                                            caller.actor(null),
                                                            "tensorboard.create",
                                                            "tensorboard",
                                                            publicId,
                                                            null,
                                                            Map.of("name", req.name(), "sources", rows.size())))
                                                    .replaceWithVoid());
                                })))
                // Two creates of one name at once both pass the check above; the unique index refuses the later.
                .onFailure(e -> UniqueViolation.of(e, "tensorboards_owner_name"))
                .transform(e -> nameTaken(req.name()))
                .flatMap(job -> get(publicId, caller));
    }

    private static ApiException nameTaken(String name) {
        return ApiException.conflict("TensorboardExists", "you have a panel named '" + name + "' already");
    }

    /** The job a panel's server runs as: TensorBoard over the folders at {@code /logs/<n>}, CPU only. */
    JobViews.SubmitJob serverJob(String name, List<TensorboardSources.Found> found) {
        return new JobViews.SubmitJob(
                name,
                "tensorboard",
                config.image(),
                List.of("tensorboard"),
                TensorboardPanels.args(
                        found.stream().map(TensorboardSources.Found::name).toList()),
                null,
                null,
                new JobViews.PodResources(config.cpu(), config.memory(), null, null, null),
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null);
    }

    public Uni<TensorboardViews.TensorboardList> list(Caller caller) {
        return Panache.withSession(() -> queries.of(caller.userId()).flatMap(this::views))
                .map(TensorboardViews.TensorboardList::new);
    }

    public Uni<TensorboardViews.Tensorboard> get(String id, Caller caller) {
        return Panache.withSession(() -> mine(id, caller).flatMap(p -> views(List.of(p))))
                .map(v -> v.get(0));
    }

    /** Starts a stopped panel again: a new server job in the account of its last one, on that job's origin. */
    public Uni<TensorboardViews.Tensorboard> start(String id, Caller caller) {
        return Panache.withSession(() -> mine(id, caller)
                        .flatMap(p -> lookups.statuses(List.of(p.jobId())).map(s -> Map.entry(p, s.get(p.jobId())))))
                .flatMap(e -> {
                    TensorboardQueries.PanelRow p = e.getKey();
                    JobLookups.Status last = e.getValue();
                    if (last != null && !last.ended()) {
                        throw ApiException.conflict(
                                "TensorboardRunning", "panel '" + p.name() + "' is " + last.state() + " already");
                    }
                    return Panache.withSession(() -> queries.sources(List.of(p.id())))
                            .flatMap(src -> {
                                List<TensorboardSources.Found> found = src.getOrDefault(p.id(), List.of()).stream()
                                        .map(s -> new TensorboardSources.Found(
                                                s.name(), s.space(), s.path(), s.job(), s.claimPath()))
                                        .toList();
                                return jobs.submitLinked(
                                        serverJob(p.name(), found),
                                        last == null ? null : last.account(),
                                        caller,
                                        // Two starts at once: the second's job and row roll back.
                                        jobId -> queries.startedAfter(p.id(), p.jobId(), jobId)
                                                .invoke(n -> {
                                                    if (n == 0) {
                                                        throw ApiException.conflict(
                                                                "TensorboardRunning",
                                                                "panel '" + p.name() + "' was started meanwhile");
                                                    }
                                                })
                                                .replaceWithVoid());
                            });
                })
                .flatMap(job -> get(id, caller));
    }

    /** Stops a panel's server job (its folders stay as they are). */
    public Uni<TensorboardViews.Tensorboard> stop(String id, Caller caller) {
        return Panache.withSession(() -> mine(id, caller)
                        .flatMap(p -> lookups.statuses(List.of(p.jobId())).map(s -> Map.entry(p, s.get(p.jobId())))))
                .flatMap(e -> {
                    JobLookups.Status job = e.getValue();
                    if (job == null || job.ended() || job.stopRequested()) {
                        return Uni.createFrom().item(e.getKey());
                    }
                    return stops.stop(job.publicId(), caller)
                            .flatMap(x -> Panache.withTransaction(
                                    () -> queries.stopped(e.getKey().id(), "Stopped", clock.instant())))
                            .replaceWith(e.getKey());
                })
                .flatMap(p -> get(id, caller));
    }

    /** Deletes a panel, stopping its server job first; the log folders are never touched. */
    public Uni<Void> delete(String id, Caller caller) {
        return stop(id, caller)
                .flatMap(v -> Panache.withTransaction(() -> mine(id, caller)
                        .flatMap(p -> queries.delete(p.id())
                                .call(n -> audit.record(
                                        caller.actor(null),
                                        "tensorboard.delete",
                                        "tensorboard",
                                        p.publicId(),
                                        null,
                                        Map.of("name", p.name()))))))
                .replaceWithVoid();
    }

    /** The server job of a panel that runs, to open its app; 409 when it is stopped. */
    public Uni<String> runningJob(String id, Caller caller) {
        return get(id, caller).map(v -> {
            if ("Stopped".equals(v.state())) {
                throw ApiException.conflict(
                        "TensorboardStopped", "panel '" + v.name() + "' is stopped: start it, then open it");
            }
            return v.job();
        });
    }

    /** The caller's own panel, else 404 (someone else's answers as one that does not exist). */
    private Uni<TensorboardQueries.PanelRow> mine(String id, Caller caller) {
        return queries.byPublicId(id == null ? "" : id)
                .map(r -> r.filter(p -> p.userId() == caller.userId())
                        .orElseThrow(() -> ApiException.notFound("no TensorBoard panel " + id)));
    }

    private Uni<List<TensorboardViews.Tensorboard>> views(List<TensorboardQueries.PanelRow> rows) {
        List<Long> ids = rows.stream().map(TensorboardQueries.PanelRow::id).toList();
        List<Long> jobIds = rows.stream()
                .map(TensorboardQueries.PanelRow::jobId)
                .filter(j -> j != null)
                .toList();
        return queries.sources(ids)
                .flatMap(src -> lookups.statuses(jobIds)
                        .flatMap(st -> activity.last(st.values().stream()
                                        .map(JobLookups.Status::publicId)
                                        .toList())
                                .map(used -> rows.stream()
                                        .map(p -> TensorboardViews.of(p, src.get(p.id()), st.get(p.jobId()), used))
                                        .toList())));
    }

    private static String blank(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }

    private static String nextId() {
        StringBuilder sb = new StringBuilder("tb_");
        for (int i = 0; i < 10; i++) {
            sb.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
        }
        return sb.toString();
    }
}
