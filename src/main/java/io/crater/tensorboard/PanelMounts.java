package io.crater.tensorboard;

import io.crater.job.JobInputs;
import io.crater.job.LinkedMounts;
import io.crater.policy.TensorboardPanels;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;

/** A panel's log folders as its server job mounts them: the n-th read-only at {@code /logs/<n>}. */
@ApplicationScoped
class PanelMounts implements LinkedMounts {

    @Inject
    TensorboardQueries queries;

    @Override
    public Uni<List<JobInputs.DataMount>> of(long jobId) {
        return queries.ofJob(jobId)
                .map(rows -> rows.stream()
                        .map(s -> new JobInputs.DataMount(TensorboardPanels.LOGS + s.position(), s.claimPath()))
                        .toList());
    }
}
