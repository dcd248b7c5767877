package io.crater.assets;

import io.smallrye.mutiny.Uni;
import java.util.Collection;
import java.util.List;

/**
 * Which of some jobs have not ended, as the jobs feature knows: an entry they mount may not be deleted. The jobs
 * feature provides it, so this feature need not depend on it.
 */
public interface MountingJobs {

    /** The public ids of those of {@code jobIds} that have not ended, in the caller's session. */
    Uni<List<String>> unfinished(Collection<Long> jobIds);
}
