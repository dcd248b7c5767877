package io.crater.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Whatever a user types into image, command, arguments, working directory and environment, the pods never
 * get privileges, host access, another identity or another user's files.
 */
class ManifestSafetyProperties {

    @Provide
    Arbitrary<String> hostile() {
        return Arbitraries.oneOf(
                Arbitraries.strings().ofMaxLength(40),
                Arbitraries.of(
                        "../../users/someone-else",
                        "privileged: true",
                        "hostPath:\n  path: /",
                        "HOME",
                        "CRATER_USER",
                        "--user=0",
                        "securityContext: {runAsUser: 0}",
                        "/var/run/docker.sock",
                        "hostNetwork: true",
                        "$(JUPYTER_TOKEN)"));
    }

    @Provide
    Arbitrary<Map<String, String>> env() {
        return Arbitraries.maps(
                        Arbitraries.of(
                                "HOME",
                                "CRATER_USER",
                                "CRATER_ACCOUNT",
                                "PET_NNODES",
                                "JUPYTER_TOKEN",
                                "VC_TASK_INDEX",
                                "PATH",
                                "X"),
                        hostile())
                .ofMaxSize(6);
    }

    @Property(tries = 200)
    void userInputNeverEscalates(
            @ForAll("hostile") String image,
            @ForAll("hostile") String arg,
            @ForAll("hostile") String workdir,
            @ForAll("env") Map<String, String> env,
            @ForAll JobKind kind) {
        JobInputs.Spec spec = new JobInputs.Spec(
                "jsafe0001",
                arg,
                kind,
                image,
                List.of(arg),
                List.of(arg, arg),
                workdir,
                env,
                1000,
                1L << 30,
                JobManifestsTest.A100,
                1,
                1L << 20,
                kind == JobKind.PYTORCH ? 1 : 0,
                Duration.ofHours(1));
        JobManifests.Manifests m = JobManifests.build(spec, JobManifestsTest.OWNER, JobManifestsTest.PLACEMENT, "t");
        for (var task : m.volcanoJob().getSpec().tasks) {
            PodSpec pod = task.template.getSpec();
            assertThat(pod.getHostNetwork()).isNotEqualTo(Boolean.TRUE);
            assertThat(pod.getHostPID()).isNotEqualTo(Boolean.TRUE);
            assertThat(pod.getHostIPC()).isNotEqualTo(Boolean.TRUE);
            assertThat(pod.getVolumes()).allMatch(v -> v.getHostPath() == null);
            assertThat(pod.getSecurityContext().getRunAsUser()).isEqualTo(100042L);
            assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
            assertThat(pod.getAutomountServiceAccountToken()).isFalse();
            for (Container c : pod.getContainers()) {
                assertThat(c.getSecurityContext().getPrivileged()).isFalse();
                assertThat(c.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
                assertThat(c.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
                assertThat(c.getSecurityContext().getRunAsUser()).isNull();
                assertThat(c.getVolumeMounts())
                        .extracting(v -> v.getSubPath() == null ? "" : v.getSubPath())
                        .allMatch(p -> p.isEmpty()
                                || p.equals("users/first-last")
                                || p.equals("accounts/vision-lab")
                                || p.equals("public"));
                assertThat(c.getEnv())
                        .filteredOn(e -> e.getName().equals("HOME")
                                || e.getName().startsWith("CRATER_")
                                || e.getName().startsWith("PET_"))
                        .allMatch(e -> e.getValue() == null
                                || !env.containsValue(e.getValue())
                                || isCraterValue(e.getName(), e.getValue()));
            }
        }
        // The companions carry no pod specs: only the NetworkPolicy, a token Secret or a Service.
        assertThat(m.companions())
                .allMatch(o -> o.getKind().equals("NetworkPolicy")
                        || o.getKind().equals("Secret")
                        || o.getKind().equals("Service"));
    }

    private static boolean isCraterValue(String name, String value) {
        return switch (name) {
            case "HOME", "CRATER_USER_SPACE" -> value.equals("/crater/user");
            case "CRATER_USER" -> value.equals("first-last");
            case "CRATER_ACCOUNT" -> value.equals("vision-lab");
            default -> true;
        };
    }
}
