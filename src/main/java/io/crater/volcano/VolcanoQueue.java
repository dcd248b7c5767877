package io.crater.volcano;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.Map;

/** Volcano's cluster-scoped {@code scheduling.volcano.sh/v1beta1} Queue. */
@Group("scheduling.volcano.sh")
@Version("v1beta1")
@Kind("Queue")
@Plural("queues")
public class VolcanoQueue extends CustomResource<VolcanoQueue.Spec, VolcanoQueue.Status> {

    @Override
    protected Spec initSpec() {
        return new Spec();
    }

    @Override
    protected Status initStatus() {
        return new Status();
    }

    /** {@code spec}: Crater sets only {@code capability}, {@code reclaimable} and {@code weight}. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public static class Spec {
        public Integer weight;
        public Boolean reclaimable;
        public Map<String, String> capability;
        public Map<String, String> deserved;
        public Guarantee guarantee;
        public Integer priority;
        public String parent;
    }

    /** {@code spec.guarantee}. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public static class Guarantee {
        public Map<String, String> resource;
    }

    /** {@code status}. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public static class Status {
        public String state;
        public Integer pending;
        public Integer running;
        public Integer inqueue;
        public Integer completed;
        public Integer unknown;
        public Map<String, String> allocated;
    }
}
