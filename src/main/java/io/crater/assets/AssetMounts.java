package io.crater.assets;

import io.crater.files.FileTargets;
import io.crater.identity.Caller;
import io.crater.identity.UserService;
import io.crater.platform.ApiException;
import io.crater.platform.Problem;
import io.crater.policy.DataMounts;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Datasets and models as jobs mount them: a job's entries are looked up for its submitter (who must see each),
 * recorded with the job, and read back to build its pods (the entry's place on the shared claim) and its view.
 */
@ApplicationScoped
public class AssetMounts {

    @Inject
    AssetQueries queries;

    @Inject
    AssetReads reads;

    @Inject
    UserService users;

    /** An entry a job mounts, found: its id (the stored spec names it so) and where it appears. */
    public record Resolved(String kind, long assetId, String publicId, String name, String path, String claimPath) {}

    /**
     * An entry as a job mounted it: where ({@code path}), which ({@code id}, {@code name}, {@code owner}; id and
     * owner null once the entry is deleted), and where it lies ({@code space}, {@code source}) — always read-only.
     */
    @Schema(name = "AssetMount")
    public record Mount(String kind, String id, String name, String owner, String path, String space, String source) {

        /** Its place on the shared claim as a pod's {@code subPath}, or null once the entry is deleted. */
        public String claimPath() {
            return space == null ? null : FileTargets.Target.claimPath(space, source);
        }
    }

    /**
     * The entries of the checked mounts ({@link DataMounts#check}), each seen by the caller; otherwise 400
     * {@code UnknownAsset} naming each field ({@code mounts[0].dataset}). In the caller's session.
     */
    public Uni<List<Resolved>> resolve(Caller caller, List<DataMounts.Wanted> wanted) {
        if (wanted.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return reads.viewer(caller).flatMap(v -> {
            Uni<List<Object>> all = Uni.createFrom().item(new ArrayList<>());
            for (DataMounts.Wanted w : wanted) {
                all = all.flatMap(done -> one(v, w).map(found -> {
                    done.add(found);
                    return done;
                }));
            }
            return all.map(found -> {
                List<Problem.FieldError> errors = new ArrayList<>();
                List<Resolved> out = new ArrayList<>();
                for (int i = 0; i < found.size(); i++) {
                    DataMounts.Wanted w = wanted.get(i);
                    if (found.get(i) instanceof AssetQueries.AssetRow a) {
                        out.add(new Resolved(
                                a.kind(),
                                a.id(),
                                a.publicId(),
                                a.name(),
                                w.path(),
                                FileTargets.Target.claimPath(a.space(), a.path())));
                    } else {
                        String kind = w.dataset() != null ? "dataset" : "model";
                        errors.add(new Problem.FieldError("mounts[" + i + "]." + kind, (String) found.get(i)));
                    }
                }
                if (!errors.isEmpty()) {
                    throw ApiException.badRequest(
                            "UnknownAsset", "the job mounts datasets or models you may not use", errors);
                }
                return out;
            });
        });
    }

    /** The entry a reference means to this viewer, or why there is none (a message). */
    private Uni<Object> one(AssetQueries.Viewer v, DataMounts.Wanted w) {
        String kind = w.dataset() != null ? "dataset" : "model";
        String ref = (w.dataset() != null ? w.dataset() : w.model()).trim();
        String none = "no " + kind + " '" + ref + "' you may use";
        if (AssetChecks.PUBLIC_ID.matcher(ref).matches()) {
            return queries.byPublicId(ref)
                    .map(r -> r.filter(a -> a.kind().equals(kind) && AssetReads.sees(v, a))
                            .<Object>map(a -> a)
                            .orElse(none));
        }
        int slash = ref.indexOf('/');
        String owner = slash < 0 ? null : ref.substring(0, slash);
        String name = ref.substring(slash + 1);
        return queries.named(v, kind, name, null)
                .flatMap(rows -> users.usernames(rows.stream()
                                .map(AssetQueries.AssetRow::ownerId)
                                .distinct()
                                .toList())
                        .map(names -> pick(rows, names, owner, v.userId(), kind, name, none)));
    }

    private static Object pick(
            List<AssetQueries.AssetRow> rows,
            Map<Long, String> names,
            String owner,
            long me,
            String kind,
            String name,
            String none) {
        List<AssetQueries.AssetRow> of = owner == null
                ? rows
                : rows.stream()
                        .filter(a -> owner.equals(names.get(a.ownerId())))
                        .toList();
        if (of.size() == 1) {
            return of.get(0);
        }
        var mine = of.stream().filter(a -> a.ownerId() == me).findFirst();
        if (mine.isPresent()) {
            return mine.get();
        }
        if (of.isEmpty()) {
            return none;
        }
        return "several " + kind + "s named '" + name + "' ("
                + String.join(
                        ", ",
                        of.stream()
                                .map(a -> names.get(a.ownerId()) + "/" + name)
                                .toList())
                + "): name one as owner/name or by its id";
    }

    /** Records which entries a job mounts; call in the transaction that inserts the job. */
    public Uni<Void> record(long jobId, List<Resolved> mounts) {
        Uni<Integer> all = Uni.createFrom().item(0);
        for (Resolved m : mounts) {
            all = all.flatMap(n -> queries.addMount(jobId, m.path(), m.assetId(), m.kind(), m.name()));
        }
        return all.replaceWithVoid();
    }

    /** Gives a copy of a job (a requeued one) the entries the job mounts; call in the transaction that inserts it. */
    public Uni<Void> copy(long fromJobId, long toJobId) {
        return queries.copyMounts(fromJobId, toJobId).replaceWithVoid();
    }

    /** The entries a job mounts, in the caller's session. */
    public Uni<List<Mount>> of(long jobId) {
        return queries.mountsOf(jobId).flatMap(rows -> {
            List<Long> owners = rows.stream()
                    .map(AssetQueries.MountRow::ownerId)
                    .filter(Objects::nonNull)
                    .distinct()
                    .toList();
            Uni<Map<Long, String>> names = owners.isEmpty() ? Uni.createFrom().item(Map.of()) : users.usernames(owners);
            return names.map(n -> rows.stream()
                    .map(r -> new Mount(
                            r.kind(),
                            r.publicId(),
                            r.name(),
                            r.ownerId() == null ? null : n.get(r.ownerId()),
                            r.mountPath(),
                            r.space(),
                            r.path()))
                    .toList());
        });
    }
}
