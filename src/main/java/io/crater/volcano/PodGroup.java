package io.crater.volcano;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.List;
import java.util.Map;

/** Volcano's {@code scheduling.volcano.sh/v1beta1} PodGroup (no status subresource in Volcano's CRD). */
@Group("scheduling.volcano.sh")
@Version("v1beta1")
@Kind("PodGroup")
@Plural("podgroups")
public class PodGroup extends CustomResource<PodGroup.Spec, PodGroup.Status> implements Namespaced {

    public static final String PENDING = "Pending";
    public static final String INQUEUE = "Inqueue";
    public static final String RUNNING = "Running";
    public static final String COMPLETED = "Completed";

    @Override
    protected Spec initSpec() {
        return new Spec();
    }

    @Override
    protected Status initStatus() {
        return new Status();
    }

    /** {@code spec}. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public static class Spec {
        public Integer minMember;
        public Map<String, Integer> minTaskMember;
        public String queue;
        public String priorityClassName;
        public Map<String, String> minResources;
    }

    /** {@code status}: phase is Pending, Running, Unknown, Inqueue or Completed. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public static class Status {
        public String phase;
        public List<Condition> conditions;
        public Integer running;
        public Integer succeeded;
        public Integer failed;
    }

    /** One entry of {@code status.conditions}. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public static class Condition {
        public String type;
        public String status;
        public String reason;
        public String message;
        public String lastTransitionTime;
        public String transitionID;
    }
}
