package io.crater.downloads;

import io.crater.files.FileTargets;
import io.crater.identity.Caller;
import io.crater.job.JobStops;
import io.crater.platform.ApiException;
import io.crater.platform.AuditTrail;
import io.crater.platform.OnContext;
import io.crater.platform.Problem;
import io.crater.policy.HubDownloads;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Pausing, resuming and retrying a download (its owner's): a pause stops its job and keeps the files; a resume starts
 * another job into the same folder, which the client continues; a retry after a failure does the same, optionally from
 * another address of the hub, after asking it for the same commit.
 */
@ApplicationScoped
public class DownloadActions {

    @Inject
    DownloadService downloads;

    @Inject
    DownloadQueries queries;

    @Inject
    DownloadStarts starts;

    @Inject
    FileTargets targets;

    @Inject
    HubClient hub;

    @Inject
    DownloadsConfig config;

    @Inject
    DownloadTokens tokens;

    @Inject
    JobStops stops;

    @Inject
    AuditTrail audit;

    public Uni<DownloadViews.Download> pause(String id, Caller caller) {
        return Panache.withTransaction(() -> owned(id, caller)
                        .call(row -> {
                            requireState(row, "running", "pause");
                            return queries.settle(
                                    row.id(),
                                    "running",
                                    "paused",
                                    "Paused",
                                    "paused by its owner",
                                    row.warnings(),
                                    null);
                        })
                        .call(row -> audit.record(
                                caller.actor(row.jobAccount()),
                                "download.pause",
                                row.kind(),
                                id,
                                null,
                                Map.of("job", row.jobPublicId()))))
                .call(row -> stops.stop(row.jobPublicId(), caller).onFailure().recoverWithNull())
                .flatMap(row -> downloads.get(id, caller));
    }

    public Uni<DownloadViews.Download> resume(String id, Caller caller) {
        return Panache.withSession(() -> owned(id, caller))
                .invoke(row -> requireState(row, "paused", "resume"))
                .flatMap(row -> restart(
                        row, row.endpoint(), row.files(), new ArrayList<>(row.warnings()), "download.resume", caller))
                .flatMap(x -> downloads.get(id, caller));
    }

    public Uni<DownloadViews.Download> retry(String id, DownloadViews.RetryDownload req, Caller caller) {
        String endpoint =
                req == null || req.endpoint() == null || req.endpoint().isBlank()
                        ? null
                        : req.endpoint().trim();
        if (req != null && req.hub() != null && !HubDownloads.HUBS.contains(req.hub())) {
            throw DownloadChecks.invalid(
                    List.of(new Problem.FieldError("hub", "one of " + String.join(", ", HubDownloads.HUBS))));
        }
        return Panache.withSession(() -> owned(id, caller))
                .invoke(row -> requireState(row, "failed", "retry"))
                .invoke(row -> {
                    if (endpoint != null && !known(row.hub(), endpoint)) {
                        throw DownloadChecks.invalid(List.of(new Problem.FieldError(
                                "endpoint",
                                "one of the hub's configured addresses: "
                                        + String.join(", ", DownloadStarts.addresses(config, row.hub())))));
                    }
                })
                .flatMap(row -> Panache.withTransaction(() -> tokens.token(row.ownerId(), row.credential()))
                        .flatMap(token -> DownloadService.blocking(() -> hub.resolve(
                                row.hub(),
                                endpoint == null ? row.endpoint() : endpoint,
                                row.kind(),
                                row.repository(),
                                // ModelScope's client takes a branch or tag only: ask for it, and insist on the commit.
                                "modelscope".equals(row.hub()) ? row.revision() : row.sha(),
                                token.orElse(null))))
                        .flatMap(r -> {
                            List<String> warnings = new ArrayList<>(row.warnings());
                            if (!r.sha().equals(row.sha())) {
                                if ("modelscope".equals(row.hub())) {
                                    throw ApiException.conflict(
                                            "HubRevisionMoved",
                                            "'" + row.revision() + "' is commit " + r.sha() + " now, not " + row.sha()
                                                    + "; start a new download for it");
                                }
                                warnings.add("the hub answered commit " + r.sha() + " for " + row.sha());
                            }
                            return restart(
                                    row,
                                    endpoint == null ? row.endpoint() : endpoint,
                                    HubDownloads.select(row.hub(), r.files(), row.include(), row.exclude()),
                                    warnings,
                                    "download.retry",
                                    caller);
                        }))
                .flatMap(x -> downloads.get(id, caller));
    }

    private Uni<Void> restart(
            DownloadQueries.DownloadRow row,
            String endpoint,
            List<HubDownloads.HubFile> files,
            List<String> warnings,
            String action,
            Caller caller) {
        String space = row.space().startsWith("user:") ? "user" : row.space();
        return DownloadService.blocking(() -> targets.writable(caller, space, row.path(), true))
                .flatMap(t -> OnContext.run(() -> Panache.withTransaction(() -> {
                    if (!t.ok()) {
                        throw ApiException.conflict(
                                "DownloadTargetGone",
                                "the folder " + row.path() + " cannot be" + " written any more: " + t.refusal());
                    }
                    // The row locked and its state checked again: of two resumes (or retries) at once, the second
                    // waits for the first and finds the download running.
                    return queries.lockedState(row.id())
                            .invoke(state ->
                                    requireState(state, row.state(), action.substring(action.indexOf('.') + 1)))
                            .flatMap(x -> starts.requireRoom(row.ownerId()))
                            .flatMap(x -> starts.start(run(row, endpoint, t.target()), row.jobAccount(), caller))
                            .call(job -> queries.restart(
                                    row.id(), job, endpoint, row.sha(), files, row.dedupKey(), warnings))
                            .call(job -> queries.run(row.id(), row.ownerId(), job))
                            .call(job -> audit.record(
                                    caller.actor(row.jobAccount()),
                                    action,
                                    row.kind(),
                                    row.publicId(),
                                    null,
                                    Map.of("job", job, "endpoint", endpoint)));
                })))
                .replaceWithVoid();
    }

    private static DownloadStarts.Run run(DownloadQueries.DownloadRow row, String endpoint, FileTargets.Target t) {
        return new DownloadStarts.Run(
                row.hub(),
                row.kind(),
                row.repository(),
                row.sha(),
                row.revision(),
                row.include(),
                row.exclude(),
                endpoint,
                row.credential(),
                row.name(),
                t);
    }

    /** The download if the caller owns it: 404 when they do not see it, 403 when they see it but do not own it. */
    private Uni<DownloadQueries.DownloadRow> owned(String id, Caller caller) {
        return downloads.visible(id, caller).map(row -> {
            if (row.ownerId() != caller.userId()) {
                throw ApiException.forbidden(
                        "NotDownloadOwner", "only its owner may pause, resume or retry a download");
            }
            return row;
        });
    }

    private static void requireState(DownloadQueries.DownloadRow row, String wanted, String verb) {
        requireState(row.state(), wanted, verb);
    }

    private static void requireState(String state, String wanted, String verb) {
        if (!state.equals(wanted)) {
            throw ApiException.conflict(
                    "DownloadNot" + Character.toUpperCase(wanted.charAt(0)) + wanted.substring(1),
                    "the download is " + state + "; only a " + wanted + " download can " + verb);
        }
    }

    private boolean known(String hubName, String endpoint) {
        return DownloadStarts.addresses(config, hubName).stream()
                .anyMatch(a -> HubClient.base(a).equals(HubClient.base(endpoint)));
    }
}
