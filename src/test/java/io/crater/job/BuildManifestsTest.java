package io.crater.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Secret;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** An image build job's own objects: the Dockerfile's ConfigMap, the login's Secret, the builder's pod. */
class BuildManifestsTest {

    static final BuildFiles.Build BUILD = new BuildFiles.Build(
            "buildkit",
            "FROM debian:12\nRUN apt-get update\n",
            "registry.example.org/alice/trainer:1",
            "registry.example.org",
            false,
            "reg");

    static JobManifests.Manifests built(BuildFiles.Build b, String login) {
        JobInputs.Spec spec = JobManifestsTest.spec(JobKind.IMAGEBUILD);
        return BuildManifests.with(
                JobManifests.build(spec, JobManifestsTest.OWNER, JobManifestsTest.PLACEMENT, "t"),
                spec,
                JobManifestsTest.OWNER,
                JobManifestsTest.PLACEMENT,
                b,
                login);
    }

    static <T extends HasMetadata> T named(JobManifests.Manifests m, Class<T> type, String name) {
        return m.companions().stream()
                .filter(type::isInstance)
                .map(type::cast)
                .filter(o -> o.getMetadata().getName().equals(name))
                .findFirst()
                .orElse(null);
    }

    @Test
    void buildKitRunsRootlessWithTheDockerfileAndTheLogin() {
        String config = "{\"auths\":{\"registry.example.org\":{\"auth\":\"Ym9iOnB3\"}}}";
        JobManifests.Manifests m = built(BUILD, config);
        ConfigMap dockerfile = named(m, ConfigMap.class, "c-jk3f9x2f-dockerfile");
        assertThat(dockerfile.getData()).containsExactlyEntriesOf(java.util.Map.of("Dockerfile", BUILD.dockerfile()));
        Secret login = named(m, Secret.class, "c-jk3f9x2f-registry");
        assertThat(new String(Base64.getDecoder().decode(login.getData().get("config.json")), StandardCharsets.UTF_8))
                .isEqualTo(config);
        PodSpec pod = m.volcanoJob().getSpec().tasks.get(0).template.getSpec();
        Container c = pod.getContainers().get(0);
        assertThat(c.getCommand()).first().isEqualTo("buildctl-daemonless.sh");
        assertThat(c.getCommand()).last().isEqualTo("type=image,name=registry.example.org/alice/trainer:1,push=true");
        assertThat(c.getEnv())
                .extracting(e -> e.getName() + "=" + e.getValue())
                .contains("BUILDKITD_FLAGS=--oci-worker-no-process-sandbox", "DOCKER_CONFIG=/crater/build/docker");
        assertThat(c.getVolumeMounts())
                .extracting(v -> v.getMountPath() + ":" + v.getReadOnly())
                .containsExactly(
                        "/crater/build/dockerfile:true",
                        "/crater/build/context:false",
                        "/crater/build/docker:true",
                        "/home/user/.local/share/buildkit:false");
        assertThat(pod.getSecurityContext().getRunAsUser()).isEqualTo(1000L);
        assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("Unconfined");
        assertThat(pod.getSecurityContext().getAppArmorProfile().getType()).isEqualTo("Unconfined");
        assertThat(c.getSecurityContext().getPrivileged()).isFalse();
        assertThat(c.getSecurityContext().getCapabilities().getAdd()).containsExactly("SETUID", "SETGID");
        assertThat(pod.getVolumes()).noneMatch(v -> v.getPersistentVolumeClaim() != null);
    }

    @Test
    void kanikoRunsAsRootWithFewCapabilitiesAndNoLoginWithoutACredential() {
        BuildFiles.Build kaniko = new BuildFiles.Build(
                "kaniko", "FROM debian:12\n", "127.0.0.1:5000/a/b:1", "127.0.0.1:5000", true, null);
        JobManifests.Manifests m = built(kaniko, "ignored");
        assertThat(named(m, Secret.class, "c-jk3f9x2f-registry")).isNull();
        PodSpec pod = m.volcanoJob().getSpec().tasks.get(0).template.getSpec();
        Container c = pod.getContainers().get(0);
        assertThat(c.getCommand())
                .containsExactly(
                        "/kaniko/executor",
                        "--dockerfile=/crater/build/dockerfile/Dockerfile",
                        "--context=dir:///crater/build/context",
                        "--destination=127.0.0.1:5000/a/b:1",
                        "--insecure");
        assertThat(pod.getSecurityContext().getRunAsUser()).isZero();
        assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
        assertThat(c.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
        assertThat(c.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
    }

    @Test
    void peopleSeeTheLoginWithheld() {
        Secret login = named(built(BUILD, null), Secret.class, "c-jk3f9x2f-registry");
        assertThat(new String(Base64.getDecoder().decode(login.getData().get("config.json")), StandardCharsets.UTF_8))
                .isEqualTo(JobManifests.WITHHELD);
    }
}
