package io.crater.job;

import io.smallrye.mutiny.Uni;
import java.util.List;

/**
 * The folders a job that another feature made mounts read-only besides its datasets and models: a TensorBoard
 * panel's log folders, at {@code /logs/<n>}. Implemented by that feature, read when the job is applied.
 */
public interface LinkedMounts {

    /** The folders job {@code jobId} mounts (none for a job no feature linked), in the caller's session. */
    Uni<List<JobInputs.DataMount>> of(long jobId);
}
