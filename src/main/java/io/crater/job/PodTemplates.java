package io.crater.job;

import io.crater.policy.Quantities;
import io.crater.policy.Taints;
import io.crater.policy.TargetNodes;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.AffinityBuilder;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The parts every job's pods share: resources, node selection, the securityContext built from the user's UID
 * and the account's GID, the file spaces mounted by subPath, shared memory, Crater's environment. Nothing here
 * is taken from user input except image, command, arguments, working directory and environment values (plain, or
 * taken from the job's credentials Secret by key) and the paths datasets and models are mounted at (read-only,
 * checked by {@link io.crater.policy.DataMounts}).
 */
final class PodTemplates {

    static final String USER_SPACE = "/crater/user";
    static final String ACCOUNT_SPACE = "/crater/account";
    static final String PUBLIC_SPACE = "/crater/public";
    static final String SPACES_VOLUME = "crater-spaces";
    static final String SHM_VOLUME = "dshm";

    private PodTemplates() {}

    /**
     * A pod template running {@code container}, with Crater's labels, volumes and securityContext, and the account's
     * bandwidth caps as annotations.
     */
    static PodTemplateSpec pod(
            JobInputs.Spec spec, JobInputs.Owner owner, JobInputs.Placement placement, Container container) {
        PodSpec pod = new PodSpecBuilder()
                .withRestartPolicy("Never")
                .withAutomountServiceAccountToken(false)
                .withEnableServiceLinks(false)
                .withNewSecurityContext()
                .withRunAsUser((long) owner.uid())
                .withRunAsGroup((long) owner.gid())
                .withRunAsNonRoot(true)
                .withSupplementalGroups((long) owner.gid())
                .withNewSeccompProfile()
                .withType("RuntimeDefault")
                .endSeccompProfile()
                .endSecurityContext()
                .withNodeSelector(nodeSelector(spec))
                .withAffinity(targetNodes(spec.targetNodes()))
                .withTolerations(exclusiveToleration(owner.accountId()))
                .withContainers(container)
                .withVolumes(volumes(spec, placement))
                .withActiveDeadlineSeconds(
                        spec.timeLimit() == null ? null : spec.timeLimit().toSeconds())
                .withTerminationGracePeriodSeconds(30L)
                .build();
        return new PodTemplateSpecBuilder()
                .withNewMetadata()
                .withLabels(JobNames.labels(
                        spec.publicId(),
                        owner.accountId(),
                        owner.userId(),
                        spec.kind().id()))
                .withAnnotations(placement.bandwidth().annotations())
                .endMetadata()
                .withSpec(pod)
                .build();
    }

    /**
     * The nodes the job named, as required node affinity on the node's name ({@code matchFields metadata.name}, the
     * one field Kubernetes matches): {@code In} the allow list or {@code NotIn} the deny list; null when it named none.
     */
    static Affinity targetNodes(TargetNodes target) {
        if (!target.named()) {
            return null;
        }
        boolean allow = !target.allow().isEmpty();
        NodeSelectorRequirement byName = new NodeSelectorRequirementBuilder()
                .withKey("metadata.name")
                .withOperator(allow ? "In" : "NotIn")
                .withValues(new TreeSet<>(allow ? target.allow() : target.deny())
                        .stream().toList())
                .build();
        return new AffinityBuilder()
                .withNewNodeAffinity()
                .withNewRequiredDuringSchedulingIgnoredDuringExecution()
                .addNewNodeSelectorTerm()
                .withMatchFields(byName)
                .endNodeSelectorTerm()
                .endRequiredDuringSchedulingIgnoredDuringExecution()
                .endNodeAffinity()
                .build();
    }

    /** The toleration of the account's exclusive nodes' taint: they are capacity for its jobs (docs/nodes.md). */
    static Toleration exclusiveToleration(long accountId) {
        Taints.Toleration t = Taints.exclusiveTo(accountId);
        return new TolerationBuilder()
                .withKey(t.key())
                .withOperator(t.operator())
                .withValue(t.value())
                .withEffect(t.effect())
                .build();
    }

    /** The main container with resources, mounts, environment and a locked-down securityContext. */
    static ContainerBuilder container(JobInputs.Spec spec, JobInputs.Owner owner, List<EnvVar> extraEnv) {
        List<EnvVar> env = new ArrayList<>();
        new TreeMap<>(spec.env()).forEach((k, v) -> {
            if (!reserved(k)) {
                env.add(new EnvVarBuilder().withName(k).withValue(v).build());
            }
        });
        new TreeMap<>(spec.credentialEnv()).forEach((k, credential) -> {
            if (!reserved(k)) {
                env.add(new EnvVarBuilder()
                        .withName(k)
                        .withNewValueFrom()
                        .withNewSecretKeyRef(k, JobNames.credentialsSecret(spec.publicId()), false)
                        .endValueFrom()
                        .build());
            }
        });
        env.add(plain("CRATER_JOB_ID", spec.publicId()));
        env.add(plain("CRATER_ACCOUNT", owner.accountSlug()));
        env.add(plain("CRATER_USER", owner.userSlug()));
        env.add(plain("CRATER_USER_SPACE", USER_SPACE));
        env.add(plain("CRATER_ACCOUNT_SPACE", ACCOUNT_SPACE));
        env.add(plain("CRATER_PUBLIC_SPACE", PUBLIC_SPACE));
        if (spec.kind().interactive()) {
            env.add(plain("HOME", USER_SPACE));
        }
        env.addAll(extraEnv);
        return new ContainerBuilder()
                .withName("main")
                .withImage(spec.image())
                .withImagePullPolicy("IfNotPresent")
                .withCommand(spec.command().isEmpty() ? null : spec.command())
                .withArgs(spec.args().isEmpty() ? null : spec.args())
                .withWorkingDir(spec.workingDir())
                .withEnv(env)
                .withNewResources()
                .withRequests(resources(spec))
                .withLimits(resources(spec))
                .endResources()
                .withVolumeMounts(mounts(spec, owner))
                .withNewSecurityContext()
                .withAllowPrivilegeEscalation(false)
                .withPrivileged(false)
                .withReadOnlyRootFilesystem(false)
                .withNewCapabilities()
                .withDrop("ALL")
                .endCapabilities()
                .endSecurityContext();
    }

    /** Names Crater sets itself; a user's value for them is dropped (the API refuses them before). */
    static boolean reserved(String name) {
        return name.startsWith("CRATER_")
                || name.startsWith("PET_")
                || name.startsWith("VC_")
                || name.equals("HOME")
                || name.equals("JUPYTER_TOKEN");
    }

    static EnvVar plain(String name, String value) {
        return new EnvVarBuilder().withName(name).withValue(value).build();
    }

    static Probe httpProbe(String path, int port) {
        return new io.fabric8.kubernetes.api.model.ProbeBuilder()
                .withNewHttpGet()
                .withPath(path)
                .withNewPort(port)
                .endHttpGet()
                .withPeriodSeconds(5)
                .withFailureThreshold(3)
                .withTimeoutSeconds(2)
                .build();
    }

    /** Requests = limits, so the pod is Guaranteed and accelerators (extended resources) are whole. */
    private static Map<String, Quantity> resources(JobInputs.Spec spec) {
        Map<String, Quantity> r = new LinkedHashMap<>();
        r.put("cpu", new Quantity(Quantities.format(spec.cpuMilli())));
        r.put("memory", new Quantity(Quantities.format(spec.memoryBytes() * 1000)));
        if (spec.accelerator() != null && spec.acceleratorsPerPod() > 0) {
            r.put(spec.accelerator().resource(), new Quantity(Integer.toString(spec.acceleratorsPerPod())));
            if (spec.accelerator().memoryResource() != null) {
                // A shared-GPU model (HAMi): device memory per device, in MiB.
                r.put(
                        spec.accelerator().memoryResource(),
                        new Quantity(Long.toString(spec.accelerator().memoryMiB())));
            }
        }
        return r;
    }

    private static Map<String, String> nodeSelector(JobInputs.Spec spec) {
        if (spec.accelerator() == null || spec.acceleratorsPerPod() == 0) {
            return null;
        }
        Map<String, String> selector = spec.accelerator().nodeSelector();
        return selector.isEmpty() ? null : selector;
    }

    private static List<Volume> volumes(JobInputs.Spec spec, JobInputs.Placement placement) {
        List<Volume> volumes = new ArrayList<>();
        volumes.add(new VolumeBuilder()
                .withName(SPACES_VOLUME)
                .withNewPersistentVolumeClaim()
                .withClaimName(placement.sharedClaim())
                .endPersistentVolumeClaim()
                .build());
        if (spec.sharedMemoryBytes() > 0) {
            volumes.add(new VolumeBuilder()
                    .withName(SHM_VOLUME)
                    .withNewEmptyDir()
                    .withMedium("Memory")
                    .withSizeLimit(new Quantity(Quantities.format(spec.sharedMemoryBytes() * 1000)))
                    .endEmptyDir()
                    .build());
        }
        return volumes;
    }

    private static List<VolumeMount> mounts(JobInputs.Spec spec, JobInputs.Owner owner) {
        List<VolumeMount> mounts = new ArrayList<>();
        mounts.add(mount(USER_SPACE, "users/" + owner.userSlug(), false));
        mounts.add(mount(ACCOUNT_SPACE, "accounts/" + owner.accountSlug(), owner.accountReadOnly()));
        mounts.add(mount(PUBLIC_SPACE, "public", true));
        for (JobInputs.DataMount m : spec.dataMounts()) {
            // Datasets and models are read-only for every job, whoever owns them.
            mounts.add(mount(m.path(), m.claimPath(), true));
        }
        if (spec.sharedMemoryBytes() > 0) {
            mounts.add(new VolumeMountBuilder()
                    .withName(SHM_VOLUME)
                    .withMountPath("/dev/shm")
                    .build());
        }
        return mounts;
    }

    private static VolumeMount mount(String path, String subPath, boolean readOnly) {
        return new VolumeMountBuilder()
                .withName(SPACES_VOLUME)
                .withMountPath(path)
                .withSubPath(subPath)
                .withReadOnly(readOnly)
                .build();
    }
}
