package io.crater.volcano;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;

/** {@code status} of a Volcano Job. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class VolcanoJobStatus {
    public JobState state;
    public Integer minAvailable;
    public Integer pending;
    public Integer running;
    public Integer succeeded;
    public Integer failed;
    public Integer terminating;
    public Integer unknown;
    public Integer version;
    public Integer retryCount;
    public Map<String, TaskState> taskStatusCount;

    /** {@code status.state}: phase is one of Pending, Aborting, Aborted, Running, Restarting, Completing,
     * Completed, Terminating, Terminated, Failed. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public static class JobState {
        public String phase;
        public String reason;
        public String message;
        public String lastTransitionTime;
    }

    /** Pod counts per pod phase of one task. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public static class TaskState {
        public Map<String, Integer> phase;
    }
}
