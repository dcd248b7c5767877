package io.crater.tensorboard;

import io.crater.files.FileTargets;
import io.crater.identity.Caller;
import io.crater.job.JobLookups;
import io.crater.platform.ApiException;
import io.crater.platform.Problem;
import io.crater.policy.TensorboardPanels;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;

/**
 * A panel's log folders looked up for its creator: a space's folder through the file API's resolver and access
 * rules ({@link FileTargets}), a job's working directory through the job (one the creator may see) and then the same
 * rules, since a job's folder lies in a file space ({@code /crater/user}, {@code /crater/account},
 * {@code /crater/public}) the creator must be able to read. Every refusal names its field; nothing is stored.
 */
@ApplicationScoped
class TensorboardSources {

    static final String USER_MOUNT = "/crater/user";
    static final String ACCOUNT_MOUNT = "/crater/account";
    static final String PUBLIC_MOUNT = "/crater/public";

    @Inject
    FileTargets targets;

    @Inject
    JobLookups jobs;

    /** A folder found: as asked ({@code space}, {@code path}, {@code job}), its prefix and its place on the claim. */
    record Found(String name, String space, String path, String job, String claimPath) {}

    /** Where a source points before the file rules are applied: a space as the creator names it, and a path. */
    private record Place(String space, String path, String job, String refusal) {}

    /** The folders of checked sources ({@link TensorboardPanels#check}), else 400 {@code InvalidTensorboard}. */
    Uni<List<Found>> resolve(Caller caller, List<TensorboardPanels.Source> sources) {
        Uni<List<Place>> places = Uni.createFrom().item(new ArrayList<>());
        for (TensorboardPanels.Source s : sources) {
            places = places.flatMap(done -> place(caller, s).map(p -> {
                done.add(p);
                return done;
            }));
        }
        Uni<List<Place>> all = places;
        return Panache.withSession(() -> all)
                .flatMap(found -> Uni.createFrom()
                        .item(() -> inspect(caller, sources, found))
                        .runSubscriptionOn(Infrastructure.getDefaultWorkerPool()));
    }

    private Uni<Place> place(Caller caller, TensorboardPanels.Source s) {
        if (s.job() == null) {
            String space = s.space() == null || s.space().isBlank()
                    ? "user"
                    : s.space().trim();
            return Uni.createFrom().item(new Place(space, s.path(), null, null));
        }
        return jobs.workingDir(s.job(), caller)
                .map(w -> placeOf(w, caller))
                .onFailure(ApiException.class)
                .recoverWithItem(e -> new Place(null, null, s.job(), "no job '" + s.job() + "' you may see"));
    }

    /** Where a job's working directory lies, as the creator names the space. */
    static Place placeOf(JobLookups.WorkingDir w, Caller caller) {
        String dir = w.workingDir();
        if (dir == null) {
            return new Place(null, null, w.publicId(), "job " + w.publicId() + " has no working directory");
        }
        for (String[] m : List.of(
                new String[] {USER_MOUNT, "user"},
                new String[] {ACCOUNT_MOUNT, "account:" + w.account()},
                new String[] {PUBLIC_MOUNT, "public"})) {
            if (dir.equals(m[0]) || dir.startsWith(m[0] + "/")) {
                String rest = dir.substring(m[0].length());
                if (m[0].equals(USER_MOUNT) && w.ownerId() != caller.userId()) {
                    return new Place(
                            null,
                            null,
                            w.publicId(),
                            "job " + w.publicId() + " writes into its owner's own space, which only they may read");
                }
                return new Place(m[1], rest.isEmpty() ? "/" : rest, w.publicId(), null);
            }
        }
        return new Place(
                null,
                null,
                w.publicId(),
                "job " + w.publicId() + " works in " + dir + ", outside the file spaces (" + USER_MOUNT + ", "
                        + ACCOUNT_MOUNT + ", " + PUBLIC_MOUNT + ")");
    }

    /** Blocking: the file rules for each place. */
    private List<Found> inspect(Caller caller, List<TensorboardPanels.Source> sources, List<Place> places) {
        List<Problem.FieldError> errors = new ArrayList<>();
        List<Found> out = new ArrayList<>();
        for (int i = 0; i < places.size(); i++) {
            Place p = places.get(i);
            String field = "sources[" + i + "]";
            if (p.refusal() != null) {
                errors.add(new Problem.FieldError(field + ".job", p.refusal()));
                continue;
            }
            FileTargets.Inspected t = targets.inspect(caller, p.space(), p.path());
            String at = p.job() != null ? field + ".job" : field + "." + (t.ok() ? "path" : t.field());
            if (!t.ok()) {
                errors.add(new Problem.FieldError(at, t.refusal()));
            } else if (!"folder".equals(t.target().type())) {
                errors.add(new Problem.FieldError(at, t.target().path() + " is a file, not a folder of logs"));
            } else {
                out.add(new Found(
                        TensorboardPanels.prefix(sources.get(i)),
                        t.target().space(),
                        t.target().path(),
                        p.job(),
                        t.target().claimPath()));
            }
        }
        if (!errors.isEmpty()) {
            throw TensorboardService.invalid(errors);
        }
        return out;
    }
}
