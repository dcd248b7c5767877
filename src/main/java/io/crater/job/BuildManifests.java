package io.crater.job;

import io.crater.policy.ImageBuilds;
import io.crater.volcano.VolcanoTask;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSecurityContextBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.SecurityContextBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * The parts of an image build job that other jobs do not have (docs/assets.md, "Builds"), put on what {@link
 * JobManifests} built: the Dockerfile in a ConfigMap and the registry login ({@code config.json}) in a Secret, both
 * owned by the job; the builder's command line; no file spaces (a build reads only its Dockerfile); and the builder's
 * securityContext: BuildKit rootless as user 1000 with seccomp and AppArmor unconfined, or Kaniko as root with the
 * few capabilities it needs. Pure: same input, same objects.
 */
final class BuildManifests {

    static final String BUILDKIT_UID = "1000";
    private static final String DOCKERFILE_VOLUME = "dockerfile";
    private static final String CONTEXT_VOLUME = "context";
    private static final String LOGIN_VOLUME = "registry-login";
    private static final String STATE_VOLUME = "builder-state";
    /** Where rootless BuildKit keeps its layers (its image's home is /home/user). */
    static final String BUILDKIT_STATE = "/home/user/.local/share/buildkit";

    private BuildManifests() {}

    /** The ConfigMap holding the job's Dockerfile. */
    static String dockerfileName(String publicId) {
        return JobNames.volcanoName(publicId) + "-dockerfile";
    }

    /** The Secret holding the job's registry login. */
    static String loginName(String publicId) {
        return JobNames.volcanoName(publicId) + "-registry";
    }

    /**
     * The job's objects with the build put in. {@code dockerConfig} is the login's {@code config.json}; null writes
     * {@value JobManifests#WITHHELD} (for people to read); ignored when the build names no credential.
     */
    static JobManifests.Manifests with(
            JobManifests.Manifests m,
            JobInputs.Spec spec,
            JobInputs.Owner owner,
            JobInputs.Placement placement,
            BuildFiles.Build build,
            String dockerConfig) {
        VolcanoTask task = m.volcanoJob().getSpec().tasks.get(0);
        task.template = template(task.template, spec, build);
        List<HasMetadata> companions = new ArrayList<>(m.companions());
        Map<String, String> labels = JobNames.labels(
                spec.publicId(), owner.accountId(), owner.userId(), spec.kind().id());
        ConfigMap dockerfile = new ConfigMapBuilder()
                .withNewMetadata()
                .withName(dockerfileName(spec.publicId()))
                .withNamespace(placement.namespace())
                .withLabels(labels)
                .endMetadata()
                .withData(Map.of("Dockerfile", build.dockerfile()))
                .build();
        companions.add(dockerfile);
        if (build.credential() != null) {
            String json = dockerConfig == null ? JobManifests.WITHHELD : dockerConfig;
            Secret login = new SecretBuilder()
                    .withNewMetadata()
                    .withName(loginName(spec.publicId()))
                    .withNamespace(placement.namespace())
                    .withLabels(labels)
                    .endMetadata()
                    .withType("Opaque")
                    .withData(Map.of(
                            "config.json", Base64.getEncoder().encodeToString(json.getBytes(StandardCharsets.UTF_8))))
                    .build();
            companions.add(login);
        }
        return new JobManifests.Manifests(m.volcanoJob(), companions);
    }

    private static PodTemplateSpec template(PodTemplateSpec t, JobInputs.Spec spec, BuildFiles.Build build) {
        boolean kaniko = ImageBuilds.Builder.KANIKO.name().equalsIgnoreCase(build.builder());
        Container main = t.getSpec().getContainers().get(0);
        List<VolumeMount> mounts = new ArrayList<>();
        List<Volume> volumes = new ArrayList<>();
        mounts.add(mount(DOCKERFILE_VOLUME, ImageBuilds.DOCKERFILE_DIR, true));
        volumes.add(new VolumeBuilder()
                .withName(DOCKERFILE_VOLUME)
                .withNewConfigMap()
                .withName(dockerfileName(spec.publicId()))
                .endConfigMap()
                .build());
        mounts.add(mount(CONTEXT_VOLUME, ImageBuilds.CONTEXT_DIR, false));
        volumes.add(emptyDir(CONTEXT_VOLUME));
        if (build.credential() != null) {
            mounts.add(mount(LOGIN_VOLUME, ImageBuilds.DOCKER_CONFIG_DIR, true));
            volumes.add(new VolumeBuilder()
                    .withName(LOGIN_VOLUME)
                    .withNewSecret()
                    .withSecretName(loginName(spec.publicId()))
                    .endSecret()
                    .build());
        }
        if (!kaniko) {
            mounts.add(mount(STATE_VOLUME, BUILDKIT_STATE, false));
            volumes.add(emptyDir(STATE_VOLUME));
        }
        ContainerBuilder c = new ContainerBuilder(main)
                .withCommand(ImageBuilds.command(
                        kaniko ? ImageBuilds.Builder.KANIKO : ImageBuilds.Builder.BUILDKIT,
                        build.destination(),
                        build.plainHttp()))
                .withArgs((List<String>) null)
                .withWorkingDir(null)
                .withVolumeMounts(mounts)
                .addToEnv(PodTemplates.plain("DOCKER_CONFIG", ImageBuilds.DOCKER_CONFIG_DIR));
        if (!kaniko) {
            c.addToEnv(PodTemplates.plain("BUILDKITD_FLAGS", "--oci-worker-no-process-sandbox"));
        }
        c.withSecurityContext(containerSecurity(kaniko));
        return new PodTemplateSpecBuilder(t)
                .editSpec()
                .withContainers(c.build())
                .withVolumes(volumes)
                .withSecurityContext(podSecurity(kaniko))
                .endSpec()
                .build();
    }

    /**
     * Kaniko unpacks the base image over its own file system, so it runs as root with the capabilities that takes;
     * rootless BuildKit maps a user namespace with newuidmap and newgidmap (setuid in its image), which need
     * privilege escalation with SETUID and SETGID. Neither is privileged.
     */
    private static io.fabric8.kubernetes.api.model.SecurityContext containerSecurity(boolean kaniko) {
        return new SecurityContextBuilder()
                .withAllowPrivilegeEscalation(!kaniko)
                .withPrivileged(false)
                .withNewCapabilities()
                .withDrop("ALL")
                .withAdd(
                        kaniko
                                ? List.of("CHOWN", "DAC_OVERRIDE", "FOWNER", "SETUID", "SETGID")
                                : List.of("SETUID", "SETGID"))
                .endCapabilities()
                .build();
    }

    /**
     * BuildKit rootless runs as the user its image has (1000) with seccomp and AppArmor unconfined (creating user
     * namespaces and mounting /proc inside them is what the default profiles forbid); Kaniko as root under the
     * runtime's default seccomp profile.
     */
    private static io.fabric8.kubernetes.api.model.PodSecurityContext podSecurity(boolean kaniko) {
        long uid = kaniko ? 0 : Long.parseLong(BUILDKIT_UID);
        PodSecurityContextBuilder security = new PodSecurityContextBuilder()
                .withRunAsUser(uid)
                .withRunAsGroup(uid)
                .withRunAsNonRoot(!kaniko)
                .withNewSeccompProfile()
                .withType(kaniko ? "RuntimeDefault" : "Unconfined")
                .endSeccompProfile();
        if (!kaniko) {
            security.withNewAppArmorProfile().withType("Unconfined").endAppArmorProfile();
        }
        return security.build();
    }

    private static VolumeMount mount(String volume, String path, boolean readOnly) {
        return new VolumeMountBuilder()
                .withName(volume)
                .withMountPath(path)
                .withReadOnly(readOnly)
                .build();
    }

    private static Volume emptyDir(String name) {
        return new VolumeBuilder()
                .withName(name)
                .withNewEmptyDir()
                .endEmptyDir()
                .build();
    }
}
