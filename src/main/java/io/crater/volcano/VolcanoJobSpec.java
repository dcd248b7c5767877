package io.crater.volcano;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Volume;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code spec} of a Volcano Job. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class VolcanoJobSpec {
    public String schedulerName;
    public Integer minAvailable;
    public String queue;
    public Integer maxRetry;
    public Integer ttlSecondsAfterFinished;
    public String priorityClassName;
    public List<VolcanoPolicy> policies;
    public Map<String, List<String>> plugins = new LinkedHashMap<>();
    public List<VolcanoTask> tasks = new ArrayList<>();
    public List<Volume> volumes;
}
