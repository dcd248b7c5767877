package io.crater.job;

import io.crater.assets.AssetMounts;
import io.crater.assets.MountingJobs;
import io.crater.platform.Sql;
import io.crater.policy.DataMounts;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Datasets and models in jobs: the spec's entries as the mount checks read them, the stored spec naming each entry
 * by its id, and which jobs that mount an entry have not ended (so that it is not deleted under them).
 */
@ApplicationScoped
public class JobMounts implements MountingJobs {

    /** The spec's entries as {@link DataMounts#check} reads them. */
    static List<DataMounts.Wanted> wanted(List<JobViews.JobMount> mounts) {
        return mounts == null
                ? List.of()
                : mounts.stream()
                        .map(m -> m == null ? null : new DataMounts.Wanted(m.dataset(), m.model(), m.path()))
                        .toList();
    }

    /** The entries as stored with the job: by id, so a later entry of the same name never takes its place. */
    static List<JobViews.JobMount> byId(List<AssetMounts.Resolved> resolved) {
        return resolved.stream()
                .map(r -> "model".equals(r.kind())
                        ? new JobViews.JobMount(null, r.publicId(), r.path())
                        : new JobViews.JobMount(r.publicId(), null, r.path()))
                .toList();
    }

    /** What the pods mount: each entry's place on the shared claim (an entry deleted since is left out). */
    static List<JobInputs.DataMount> forPods(List<AssetMounts.Mount> mounts) {
        return mounts.stream()
                .filter(m -> m.claimPath() != null)
                .map(m -> new JobInputs.DataMount(m.path(), m.claimPath()))
                .toList();
    }

    /** Both lists of mounts, in order. */
    static List<JobInputs.DataMount> join(List<JobInputs.DataMount> a, List<JobInputs.DataMount> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
    }

    /** What a dry run's pods would mount. */
    static List<JobInputs.DataMount> forDryRun(List<AssetMounts.Resolved> resolved) {
        return resolved.stream()
                .map(r -> new JobInputs.DataMount(r.path(), r.claimPath()))
                .toList();
    }

    @Override
    public Uni<List<String>> unfinished(Collection<Long> jobIds) {
        if (jobIds.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return Sql.strings(
                "SELECT public_id FROM jobs WHERE id = ANY (CAST(string_to_array(?1, ',') AS bigint[]))"
                        + " AND state NOT IN ('Succeeded', 'Failed', 'Stopped', 'Rejected') ORDER BY id",
                jobIds.stream().map(String::valueOf).collect(Collectors.joining(",")));
    }
}
