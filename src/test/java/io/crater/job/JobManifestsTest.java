package io.crater.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.crater.policy.TargetNodes;
import io.crater.volcano.VolcanoJob;
import io.crater.volcano.VolcanoTask;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The objects every kind of job becomes, against golden YAML and with targeted checks. */
class JobManifestsTest {

    static final JobInputs.Accelerator A100 = new JobInputs.Accelerator(
            "nvidia-a100-80gb", "nvidia.com/gpu", "nvidia.com/gpu.product", "NVIDIA-A100-SXM4-80GB");
    static final JobInputs.Owner OWNER = new JobInputs.Owner(7, "vision-lab", true, 42, "first-last", 100042, 200007);
    static final JobInputs.Placement PLACEMENT =
            new JobInputs.Placement("crater-jobs", "crater-vision-lab", "crater-shared", Duration.ofHours(1));
    /** The same placement in an account whose pods' traffic is capped. */
    static final JobInputs.Placement CAPPED = new JobInputs.Placement(
            "crater-jobs",
            "crater-vision-lab",
            "crater-shared",
            Duration.ofHours(1),
            new JobInputs.Bandwidth("100M", "1G"));

    static JobInputs.Spec spec(JobKind kind) {
        return switch (kind) {
            case CUSTOM ->
                new JobInputs.Spec(
                        "jk3f9x2a",
                        "preprocess",
                        kind,
                        "python:3.12",
                        List.of("python", "prep.py"),
                        List.of("--in", "/crater/account/raw"),
                        "/crater/user/project",
                        Map.of("SEED", "1"),
                        4000,
                        16L << 30,
                        null,
                        0,
                        0,
                        0,
                        Duration.ofDays(7));
            case DOWNLOAD ->
                new JobInputs.Spec(
                        "jk3f9x2f",
                        "download tiny-llm",
                        kind,
                        "docker.io/library/python:3.12-slim",
                        List.of("sh", "-c", "exec \"$@\"", "download"),
                        List.of(
                                "huggingface-cli",
                                "download",
                                "acme/tiny-llm",
                                "--repo-type",
                                "model",
                                "--revision",
                                "1111111111111111111111111111111111111111",
                                "--local-dir",
                                "/crater/user/models/tiny"),
                        null,
                        Map.of("HF_ENDPOINT", "https://huggingface.co"),
                        1000,
                        2L << 30,
                        null,
                        0,
                        0,
                        0,
                        Duration.ofDays(1));
            case PYTORCH ->
                new JobInputs.Spec(
                        "jk3f9x2b",
                        "ddp run",
                        kind,
                        "pytorch/pytorch:2.4.0-cuda12.4-cudnn9-runtime",
                        List.of("train.py"),
                        List.of("--epochs", "3"),
                        "/crater/user/project",
                        Map.of(),
                        32000,
                        256L << 30,
                        A100,
                        8,
                        64L << 30,
                        3,
                        Duration.ofDays(7));
            case JUPYTER ->
                new JobInputs.Spec(
                        "jk3f9x2c",
                        "notebook",
                        kind,
                        "quay.io/jupyter/pytorch-notebook:cuda12-2024-12-09",
                        List.of(),
                        List.of(),
                        null,
                        Map.of(),
                        8000,
                        64L << 30,
                        A100,
                        1,
                        8L << 30,
                        0,
                        Duration.ofHours(24));
            case WEBIDE ->
                new JobInputs.Spec(
                        "jk3f9x2d",
                        "editor",
                        kind,
                        "codercom/code-server:4.96.2",
                        List.of(),
                        List.of(),
                        null,
                        Map.of(),
                        4000,
                        16L << 30,
                        null,
                        0,
                        0,
                        0,
                        Duration.ofHours(24));
            case IMAGEBUILD ->
                new JobInputs.Spec(
                        "jk3f9x2f",
                        "build registry.example.org/alice/trainer:1",
                        kind,
                        "moby/buildkit:rootless",
                        List.of(),
                        List.of(),
                        null,
                        Map.of(),
                        2000,
                        4L << 30,
                        null,
                        0,
                        0,
                        0,
                        Duration.ofHours(2));
            case INFERENCE ->
                new JobInputs.Spec(
                        "jk3f9x2e",
                        "qwen",
                        kind,
                        "vllm/vllm-openai:v0.6.4",
                        List.of(),
                        List.of("--model", "Qwen/Qwen2.5-7B-Instruct", "--port", "8000"),
                        null,
                        Map.of(),
                        8000,
                        64L << 30,
                        A100,
                        1,
                        16L << 30,
                        0,
                        null);
            case TENSORBOARD ->
                new JobInputs.Spec(
                        "jk3f9x2f",
                        "runs-june",
                        kind,
                        "tensorflow/tensorflow:2.17.0",
                        List.of("tensorboard"),
                        List.of("--logdir_spec", "exp1:/logs/0,jk3f9x2a:/logs/1", "--bind_all", "--port", "6006"),
                        null,
                        Map.of(),
                        1000,
                        2L << 30,
                        null,
                        0,
                        0,
                        0,
                        Duration.ofHours(24),
                        Map.of(),
                        List.of(
                                new JobInputs.DataMount("/logs/0", "users/first-last/runs/exp1"),
                                new JobInputs.DataMount("/logs/1", "accounts/vision-lab/project")),
                        null);
        };
    }

    static String yaml(JobManifests.Manifests m) {
        StringBuilder sb = new StringBuilder(Serialization.asYaml(m.volcanoJob()));
        for (HasMetadata o : m.companions()) {
            sb.append(Serialization.asYaml(o));
        }
        return sb.toString();
    }

    @ParameterizedTest
    @EnumSource(JobKind.class)
    void matchesGoldenYaml(JobKind kind) throws IOException {
        // The multi-pod kind is built with bandwidth caps: its golden file shows them on every pod.
        JobInputs.Placement placement = kind == JobKind.PYTORCH ? CAPPED : PLACEMENT;
        JobManifests.Manifests built = JobManifests.build(spec(kind), OWNER, placement, "app-token-value");
        if (kind == JobKind.IMAGEBUILD) {
            // An image build's objects are the job's with its build put in (the login withheld, as people see it).
            built = BuildManifests.with(built, spec(kind), OWNER, placement, BuildManifestsTest.BUILD, null);
        }
        String actual = yaml(built);
        Path golden = Path.of("src/test/resources/golden/job-" + kind.id() + ".yaml");
        if (Boolean.getBoolean("crater.golden.update")) {
            Files.writeString(golden, actual);
        }
        assertThat(golden)
                .as("golden file (write it with -Dcrater.golden.update=true and review it)")
                .exists();
        assertThat(actual).isEqualTo(Files.readString(golden));
    }

    @Test
    void buildingIsDeterministic() {
        for (JobKind kind : JobKind.values()) {
            assertThat(yaml(JobManifests.build(spec(kind), OWNER, PLACEMENT, "t")))
                    .isEqualTo(yaml(JobManifests.build(spec(kind), OWNER, PLACEMENT, "t")));
        }
    }

    @Test
    void everyFieldIsExplicitAndNamesComeFromTheId() {
        VolcanoJob job =
                JobManifests.build(spec(JobKind.CUSTOM), OWNER, PLACEMENT, "t").volcanoJob();
        assertThat(job.getMetadata().getName()).isEqualTo("c-jk3f9x2a");
        assertThat(job.getMetadata().getAnnotations()).containsEntry("crater.io/display-name", "preprocess");
        assertThat(job.getMetadata().getLabels())
                .containsEntry("crater.io/job-id", "jk3f9x2a")
                .containsEntry("crater.io/account-id", "7")
                .containsEntry("crater.io/user-id", "42")
                .containsEntry("crater.io/kind", "custom");
        assertThat(job.getSpec().schedulerName).isEqualTo("volcano");
        assertThat(job.getSpec().queue).isEqualTo("crater-vision-lab");
        assertThat(job.getSpec().minAvailable).isEqualTo(1);
        assertThat(job.getSpec().maxRetry).isZero();
        assertThat(job.getSpec().ttlSecondsAfterFinished).isEqualTo(3600);
        assertThat(job.getSpec().plugins.get("svc"))
                .containsExactly("--disable-network-policy=true", "--publish-not-ready-addresses=true");
        PodSpec pod = job.getSpec().tasks.get(0).template.getSpec();
        assertThat(pod.getActiveDeadlineSeconds()).isEqualTo(7 * 24 * 3600L);
        assertThat(pod.getSecurityContext().getRunAsUser()).isEqualTo(100042L);
        assertThat(pod.getSecurityContext().getRunAsGroup()).isEqualTo(200007L);
        assertThat(pod.getContainers().get(0).getVolumeMounts())
                .extracting(m -> m.getMountPath() + ":" + m.getSubPath() + ":" + m.getReadOnly())
                .containsExactly(
                        "/crater/user:users/first-last:false",
                        "/crater/account:accounts/vision-lab:true",
                        "/crater/public:public:true");
    }

    @Test
    void bandwidthCapsAnnotateEveryPodAndNoCapWritesNoAnnotation() {
        VolcanoJob capped =
                JobManifests.build(spec(JobKind.PYTORCH), OWNER, CAPPED, "t").volcanoJob();
        assertThat(capped.getSpec().tasks)
                .hasSize(2)
                .allSatisfy(t -> assertThat(t.template.getMetadata().getAnnotations())
                        .containsExactlyInAnyOrderEntriesOf(Map.of(
                                "kubernetes.io/ingress-bandwidth", "100M", "kubernetes.io/egress-bandwidth", "1G")));
        JobInputs.Placement egressOnly = new JobInputs.Placement(
                "crater-jobs",
                "crater-vision-lab",
                "crater-shared",
                Duration.ofHours(1),
                new JobInputs.Bandwidth(null, "10M"));
        assertThat(JobManifests.build(spec(JobKind.JUPYTER), OWNER, egressOnly, "t")
                        .volcanoJob()
                        .getSpec()
                        .tasks
                        .get(0)
                        .template
                        .getMetadata()
                        .getAnnotations())
                .containsExactlyEntriesOf(Map.of("kubernetes.io/egress-bandwidth", "10M"));
        for (JobKind kind : JobKind.values()) {
            assertThat(JobManifests.build(spec(kind), OWNER, PLACEMENT, "t")
                            .volcanoJob()
                            .getSpec()
                            .tasks)
                    .allSatisfy(t -> assertThat(t.template.getMetadata().getAnnotations())
                            .isNullOrEmpty());
        }
    }

    @Test
    void pytorchGetsNodeLevelTorchrunSettingsAndAGang() {
        VolcanoJob job =
                JobManifests.build(spec(JobKind.PYTORCH), OWNER, PLACEMENT, "t").volcanoJob();
        assertThat(job.getSpec().tasks)
                .extracting(t -> t.name + "x" + t.replicas)
                .containsExactly("masterx1", "workerx3");
        assertThat(job.getSpec().minAvailable).isEqualTo(4);
        VolcanoTask worker = job.getSpec().tasks.get(1);
        Container c = worker.template.getSpec().getContainers().get(0);
        Map<String, String> env = c.getEnv().stream()
                .filter(e -> e.getValue() != null)
                .collect(Collectors.toMap(EnvVar::getName, EnvVar::getValue));
        assertThat(env)
                .containsEntry("PET_NNODES", "4")
                .containsEntry("PET_NPROC_PER_NODE", "8")
                .containsEntry("PET_MASTER_ADDR", "c-jk3f9x2b-master-0.c-jk3f9x2b")
                .containsEntry("PET_MASTER_PORT", "23456")
                .containsEntry("PET_RDZV_BACKEND", "c10d")
                .containsEntry("PET_RDZV_CONF", "timeout=900");
        assertThat(c.getCommand().get(2))
                .contains("VC_TASK_INDEX")
                .contains("+ 1 ))")
                .contains("exec torchrun");
        assertThat(c.getArgs()).containsExactly("train.py", "--epochs", "3");
        assertThat(c.getResources().getLimits().get("nvidia.com/gpu").toString())
                .isEqualTo("8");
        assertThat(worker.template.getSpec().getNodeSelector())
                .containsEntry("nvidia.com/gpu.product", "NVIDIA-A100-SXM4-80GB");
        assertThat(job.getSpec().tasks.get(0).policies)
                .extracting(p -> p.event + "->" + p.action)
                .containsExactly("TaskCompleted->CompleteJob");
    }

    @Test
    void jupyterTakesItsTokenFromASecretAndInferenceGetsAService() {
        JobManifests.Manifests jupyter = JobManifests.build(spec(JobKind.JUPYTER), OWNER, PLACEMENT, "s3cret");
        Secret secret = (Secret) jupyter.companions().stream()
                .filter(o -> o instanceof Secret)
                .findFirst()
                .orElseThrow();
        assertThat(secret.getMetadata().getName()).isEqualTo("c-jk3f9x2c-app");
        assertThat(secret.getStringData()).containsEntry("token", "s3cret");
        Container c = jupyter.volcanoJob()
                .getSpec()
                .tasks
                .get(0)
                .template
                .getSpec()
                .getContainers()
                .get(0);
        assertThat(c.getEnv())
                .anyMatch(e -> e.getName().equals("JUPYTER_TOKEN")
                        && e.getValueFrom().getSecretKeyRef().getName().equals("c-jk3f9x2c-app"));
        assertThat(c.getEnv())
                .anyMatch(e -> e.getName().equals("HOME") && e.getValue().equals("/crater/user"));
        assertThat(c.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/api");

        JobManifests.Manifests inference = JobManifests.build(spec(JobKind.INFERENCE), OWNER, PLACEMENT, "x");
        Service svc = (Service) inference.companions().stream()
                .filter(o -> o instanceof Service)
                .findFirst()
                .orElseThrow();
        assertThat(svc.getMetadata().getName()).isEqualTo("c-jk3f9x2e-serve");
        assertThat(svc.getSpec().getSelector()).containsEntry("crater.io/job-id", "jk3f9x2e");
        assertThat(inference
                        .volcanoJob()
                        .getSpec()
                        .tasks
                        .get(0)
                        .template
                        .getSpec()
                        .getActiveDeadlineSeconds())
                .isNull();
    }

    @Test
    void namedNodesBecomeRequiredAffinityOnTheNodeNameAndEveryPodToleratesItsAccountsExclusiveNodes() {
        JobInputs.Spec base = spec(JobKind.PYTORCH);
        JobInputs.Spec only = base.withTargetNodes(TargetNodes.of(List.of("a100-2", "a100-1"), null));
        for (var task :
                JobManifests.build(only, OWNER, PLACEMENT, "t").volcanoJob().getSpec().tasks) {
            PodSpec pod = task.template.getSpec();
            var terms = pod.getAffinity()
                    .getNodeAffinity()
                    .getRequiredDuringSchedulingIgnoredDuringExecution()
                    .getNodeSelectorTerms();
            assertThat(terms).hasSize(1);
            assertThat(terms.get(0).getMatchExpressions()).isEmpty();
            var field = terms.get(0).getMatchFields().get(0);
            assertThat(field.getKey()).isEqualTo("metadata.name");
            assertThat(field.getOperator()).isEqualTo("In");
            assertThat(field.getValues()).containsExactly("a100-1", "a100-2");
            assertThat(pod.getTolerations()).singleElement().satisfies(t -> {
                assertThat(t.getKey()).isEqualTo("crater.io/exclusive");
                assertThat(t.getValue()).isEqualTo("7");
                assertThat(t.getEffect()).isEqualTo("NoSchedule");
            });
        }
        PodSpec avoiding = JobManifests.build(
                        base.withTargetNodes(TargetNodes.ANY.avoiding("a100-4")), OWNER, PLACEMENT, "t")
                .volcanoJob()
                .getSpec()
                .tasks
                .get(0)
                .template
                .getSpec();
        var avoid = avoiding.getAffinity()
                .getNodeAffinity()
                .getRequiredDuringSchedulingIgnoredDuringExecution()
                .getNodeSelectorTerms()
                .get(0)
                .getMatchFields()
                .get(0);
        assertThat(avoid.getOperator()).isEqualTo("NotIn");
        assertThat(avoid.getValues()).containsExactly("a100-4");
        assertThat(JobManifests.build(base, OWNER, PLACEMENT, "t")
                        .volcanoJob()
                        .getSpec()
                        .tasks
                        .get(0)
                        .template
                        .getSpec()
                        .getAffinity())
                .as("no nodes named: no affinity")
                .isNull();
    }
}
