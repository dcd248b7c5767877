package io.crater.volcano;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/** Volcano's {@code batch.volcano.sh/v1alpha1} Job: the fields Crater writes and reads. */
@Group("batch.volcano.sh")
@Version("v1alpha1")
@Kind("Job")
@Plural("jobs")
public class VolcanoJob extends CustomResource<VolcanoJobSpec, VolcanoJobStatus> implements Namespaced {

    @Override
    protected VolcanoJobSpec initSpec() {
        return new VolcanoJobSpec();
    }

    @Override
    protected VolcanoJobStatus initStatus() {
        return new VolcanoJobStatus();
    }
}
