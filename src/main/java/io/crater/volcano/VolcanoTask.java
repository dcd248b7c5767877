package io.crater.volcano;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import java.util.List;

/** One entry of a Volcano Job's {@code spec.tasks}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class VolcanoTask {
    public String name;
    public Integer replicas;
    public Integer minAvailable;
    public Integer maxRetry;
    public List<VolcanoPolicy> policies;
    public PodTemplateSpec template;

    public VolcanoTask() {}

    public VolcanoTask(String name, int replicas, PodTemplateSpec template) {
        this.name = name;
        this.replicas = replicas;
        this.template = template;
    }
}
