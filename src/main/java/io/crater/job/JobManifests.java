package io.crater.job;

import io.crater.volcano.VolcanoJob;
import io.crater.volcano.VolcanoPolicy;
import io.crater.volcano.VolcanoTask;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Pure builders of the Kubernetes objects a job becomes: the Volcano Job with every field explicit, the Secret of
 * the credentials its environment references, and per kind the Secret (Jupyter's token), the Service (inference)
 * and the NetworkPolicy that admits only the job's own pods and Crater. Same input, same objects.
 */
public final class JobManifests {

    static final int JUPYTER_PORT = 8888;
    static final int WEBIDE_PORT = 8080;
    static final int INFERENCE_PORT = 8000;
    static final int TENSORBOARD_PORT = 6006;
    static final int TORCH_MASTER_PORT = 23456;
    static final int TORCH_RDZV_TIMEOUT_SECONDS = 900;
    /** What a Secret shows in place of a value not given to the builder. */
    static final String WITHHELD = "<withheld>";

    /** The objects of one job. {@code volcanoJob} is created last, the others are owned by it. */
    public record Manifests(VolcanoJob volcanoJob, List<HasMetadata> companions) {}

    private JobManifests() {}

    /** The objects with the credentials' values withheld (for people to read, and for jobs without any). */
    public static Manifests build(
            JobInputs.Spec spec, JobInputs.Owner owner, JobInputs.Placement placement, String appToken) {
        return build(spec, owner, placement, appToken, null);
    }

    /**
     * @param appToken the token an interactive app requires (Jupyter), kept in a Secret; ignored by other kinds
     * @param credentialValues the values of the credentials {@code spec.credentialEnv()} names, by credential name
     *     (one missing leaves its key out, so Kubernetes does not start the container); null writes each value as
     *     {@value #WITHHELD}
     */
    public static Manifests build(
            JobInputs.Spec spec,
            JobInputs.Owner owner,
            JobInputs.Placement placement,
            String appToken,
            Map<String, String> credentialValues) {
        String name = JobNames.volcanoName(spec.publicId());
        VolcanoJob job = new VolcanoJob();
        job.setMetadata(meta(spec, owner, placement, name));
        job.getSpec().schedulerName = "volcano";
        job.getSpec().queue = placement.queue();
        job.getSpec().maxRetry = 0;
        job.getSpec().ttlSecondsAfterFinished =
                (int) placement.ttlAfterFinished().toSeconds();
        job.getSpec().policies = List.of(policy("PodEvicted", "AbortJob"), policy("PodFailed", "AbortJob"));
        Map<String, List<String>> plugins = new LinkedHashMap<>();
        plugins.put("svc", List.of("--disable-network-policy=true", "--publish-not-ready-addresses=true"));
        plugins.put("env", List.of());
        job.getSpec().plugins = plugins;
        job.getSpec().tasks = tasks(spec, owner, placement, name);
        job.getSpec().minAvailable =
                job.getSpec().tasks.stream().mapToInt(t -> t.replicas).sum();
        List<HasMetadata> companions = new ArrayList<>();
        companions.add(networkPolicy(spec, owner, placement, name));
        if (spec.kind() == JobKind.JUPYTER) {
            companions.add(tokenSecret(spec, owner, placement, name, appToken));
        }
        if (!spec.credentialEnv().isEmpty()) {
            companions.add(credentialsSecret(spec, owner, placement, credentialValues));
        }
        if (spec.kind() == JobKind.INFERENCE) {
            companions.add(inferenceService(spec, owner, placement, name));
        }
        return new Manifests(job, companions);
    }

    private static List<VolcanoTask> tasks(
            JobInputs.Spec spec, JobInputs.Owner owner, JobInputs.Placement placement, String name) {
        return switch (spec.kind()) {
            case CUSTOM, DOWNLOAD, IMAGEBUILD ->
                List.of(task("main", 1, spec, owner, placement, PodTemplates.container(spec, owner, List.of())));
            case JUPYTER -> List.of(task("main", 1, spec, owner, placement, jupyter(spec, owner, name)));
            case WEBIDE -> List.of(task("main", 1, spec, owner, placement, webide(spec, owner)));
            case INFERENCE -> List.of(task("main", 1, spec, owner, placement, inference(spec, owner)));
            case PYTORCH -> pytorch(spec, owner, placement, name);
            case TENSORBOARD -> List.of(task("main", 1, spec, owner, placement, tensorboard(spec, owner)));
        };
    }

    private static VolcanoTask task(
            String taskName,
            int replicas,
            JobInputs.Spec spec,
            JobInputs.Owner owner,
            JobInputs.Placement placement,
            ContainerBuilder container) {
        VolcanoTask t =
                new VolcanoTask(taskName, replicas, PodTemplates.pod(spec, owner, placement, container.build()));
        t.minAvailable = replicas;
        t.maxRetry = 0;
        return t;
    }

    private static ContainerBuilder jupyter(JobInputs.Spec spec, JobInputs.Owner owner, String name) {
        EnvVar token = new EnvVarBuilder()
                .withName("JUPYTER_TOKEN")
                .withNewValueFrom()
                .withNewSecretKeyRef("token", name + "-app", false)
                .endValueFrom()
                .build();
        JobInputs.Spec withArgs = withDefaultCommand(
                spec,
                List.of("start-notebook.py"),
                List.of(
                        "--ServerApp.ip=0.0.0.0",
                        "--ServerApp.port=" + JUPYTER_PORT,
                        "--ServerApp.base_url=/",
                        "--ServerApp.root_dir=" + PodTemplates.USER_SPACE,
                        "--IdentityProvider.token=$(JUPYTER_TOKEN)",
                        "--ServerApp.allow_remote_access=True"));
        return PodTemplates.container(withArgs, owner, List.of(token))
                .withPorts(new ContainerPortBuilder()
                        .withName("app")
                        .withContainerPort(JUPYTER_PORT)
                        .build())
                .withReadinessProbe(PodTemplates.httpProbe("/api", JUPYTER_PORT));
    }

    private static ContainerBuilder webide(JobInputs.Spec spec, JobInputs.Owner owner) {
        JobInputs.Spec withArgs = withDefaultCommand(
                spec,
                List.of("code-server"),
                List.of(
                        "--auth",
                        "none",
                        "--bind-addr",
                        "0.0.0.0:" + WEBIDE_PORT,
                        "--disable-telemetry",
                        PodTemplates.USER_SPACE));
        return PodTemplates.container(withArgs, owner, List.of())
                .withPorts(new ContainerPortBuilder()
                        .withName("app")
                        .withContainerPort(WEBIDE_PORT)
                        .build())
                .withReadinessProbe(PodTemplates.httpProbe("/healthz", WEBIDE_PORT));
    }

    private static ContainerBuilder inference(JobInputs.Spec spec, JobInputs.Owner owner) {
        return PodTemplates.container(spec, owner, List.of())
                .withPorts(new ContainerPortBuilder()
                        .withName("http")
                        .withContainerPort(INFERENCE_PORT)
                        .build())
                .withReadinessProbe(PodTemplates.httpProbe("/health", INFERENCE_PORT));
    }

    /** TensorBoard with the command its panel wrote ({@code --port 6006 --bind_all}), ready once it serves its logdir. */
    private static ContainerBuilder tensorboard(JobInputs.Spec spec, JobInputs.Owner owner) {
        return PodTemplates.container(spec, owner, List.of())
                .withPorts(new ContainerPortBuilder()
                        .withName("app")
                        .withContainerPort(TENSORBOARD_PORT)
                        .build())
                .withReadinessProbe(PodTemplates.httpProbe("/data/logdir", TENSORBOARD_PORT));
    }

    /**
     * A master and {@code workers} workers, each running torchrun with node-level {@code PET_*} settings (Volcano's
     * pytorch plugin only sets pod-level ones) and c10d rendezvous at the master with a timeout. The node rank
     * comes from Volcano's {@code VC_TASK_INDEX}: 0 for the master, index + 1 for a worker.
     */
    private static List<VolcanoTask> pytorch(
            JobInputs.Spec spec, JobInputs.Owner owner, JobInputs.Placement placement, String name) {
        String master = name + "-master-0." + name;
        int perNode = Math.max(1, spec.acceleratorsPerPod());
        List<EnvVar> env = List.of(
                PodTemplates.plain("PET_NNODES", Integer.toString(spec.workers() + 1)),
                PodTemplates.plain("PET_NPROC_PER_NODE", Integer.toString(perNode)),
                PodTemplates.plain("PET_MASTER_ADDR", master),
                PodTemplates.plain("PET_MASTER_PORT", Integer.toString(TORCH_MASTER_PORT)),
                PodTemplates.plain("PET_RDZV_BACKEND", "c10d"),
                PodTemplates.plain("PET_RDZV_ENDPOINT", master + ":" + TORCH_MASTER_PORT),
                PodTemplates.plain("PET_RDZV_ID", spec.publicId()),
                PodTemplates.plain("PET_RDZV_CONF", "timeout=" + TORCH_RDZV_TIMEOUT_SECONDS));
        List<VolcanoTask> tasks = new ArrayList<>();
        VolcanoTask masterTask = task(
                "master",
                1,
                torchrun(spec, 0),
                owner,
                placement,
                PodTemplates.container(torchrun(spec, 0), owner, env)
                        .withPorts(new ContainerPortBuilder()
                                .withName("rendezvous")
                                .withContainerPort(TORCH_MASTER_PORT)
                                .build()));
        masterTask.policies = List.of(policy("TaskCompleted", "CompleteJob"));
        tasks.add(masterTask);
        if (spec.workers() > 0) {
            tasks.add(task(
                    "worker",
                    spec.workers(),
                    torchrun(spec, 1),
                    owner,
                    placement,
                    PodTemplates.container(torchrun(spec, 1), owner, env)));
        }
        return tasks;
    }

    /** The user's script and arguments run under torchrun, with the node rank derived from the task index. */
    private static JobInputs.Spec torchrun(JobInputs.Spec spec, int rankOffset) {
        List<String> command = List.of(
                "/bin/sh",
                "-c",
                "export PET_NODE_RANK=$(( ${VC_TASK_INDEX:-0} + " + rankOffset + " )); exec torchrun \"$@\"",
                "torchrun");
        List<String> args = new ArrayList<>(spec.command());
        args.addAll(spec.args());
        return spec.withCommandLine(command, args);
    }

    private static JobInputs.Spec withDefaultCommand(JobInputs.Spec spec, List<String> command, List<String> args) {
        if (!spec.command().isEmpty()) {
            return spec;
        }
        List<String> allArgs = new ArrayList<>(args);
        allArgs.addAll(spec.args());
        return spec.withCommandLine(command, allArgs);
    }

    private static VolcanoPolicy policy(String event, String action) {
        VolcanoPolicy p = new VolcanoPolicy();
        p.event = event;
        p.action = action;
        return p;
    }

    private static ObjectMeta meta(
            JobInputs.Spec spec, JobInputs.Owner owner, JobInputs.Placement placement, String name) {
        return new ObjectMetaBuilder()
                .withName(name)
                .withNamespace(placement.namespace())
                .withLabels(JobNames.labels(
                        spec.publicId(),
                        owner.accountId(),
                        owner.userId(),
                        spec.kind().id()))
                .withAnnotations(Map.of(JobNames.DISPLAY_NAME, spec.displayName()))
                .build();
    }

    /** Ingress only from the job's own pods and from Crater (the app proxy, terminal and SSH gateway). */
    private static NetworkPolicy networkPolicy(
            JobInputs.Spec spec, JobInputs.Owner owner, JobInputs.Placement placement, String name) {
        return new NetworkPolicyBuilder()
                .withMetadata(meta(spec, owner, placement, name))
                .withNewSpec()
                .withNewPodSelector()
                .withMatchLabels(Map.of(JobNames.JOB_ID, spec.publicId()))
                .endPodSelector()
                .withPolicyTypes("Ingress")
                .addNewIngress()
                .addNewFrom()
                .withNewPodSelector()
                .withMatchLabels(Map.of(JobNames.JOB_ID, spec.publicId()))
                .endPodSelector()
                .endFrom()
                .addNewFrom()
                .withNewPodSelector()
                .withMatchLabels(Map.of("app.kubernetes.io/name", "crater"))
                .endPodSelector()
                .withNewNamespaceSelector()
                .endNamespaceSelector()
                .endFrom()
                .endIngress()
                .endSpec()
                .build();
    }

    private static Secret tokenSecret(
            JobInputs.Spec spec, JobInputs.Owner owner, JobInputs.Placement placement, String name, String token) {
        ObjectMeta meta = meta(spec, owner, placement, name + "-app");
        return new SecretBuilder()
                .withMetadata(meta)
                .withType("Opaque")
                .withStringData(Map.of("token", token))
                .build();
    }

    /** One key per variable, holding the value of the credential it names; written as data, as stored. */
    private static Secret credentialsSecret(
            JobInputs.Spec spec,
            JobInputs.Owner owner,
            JobInputs.Placement placement,
            Map<String, String> credentialValues) {
        Map<String, String> data = new TreeMap<>();
        spec.credentialEnv().forEach((variable, credential) -> {
            String value = credentialValues == null ? WITHHELD : credentialValues.get(credential);
            if (value != null) {
                data.put(variable, Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8)));
            }
        });
        return new SecretBuilder()
                .withMetadata(meta(spec, owner, placement, JobNames.credentialsSecret(spec.publicId())))
                .withType("Opaque")
                .withData(data)
                .build();
    }

    private static Service inferenceService(
            JobInputs.Spec spec, JobInputs.Owner owner, JobInputs.Placement placement, String name) {
        return new ServiceBuilder()
                .withMetadata(meta(spec, owner, placement, name + "-serve"))
                .withNewSpec()
                .withType("ClusterIP")
                .withSelector(Map.of(JobNames.JOB_ID, spec.publicId()))
                .addNewPort()
                .withName("http")
                .withPort(INFERENCE_PORT)
                .withNewTargetPort(INFERENCE_PORT)
                .endPort()
                .endSpec()
                .build();
    }
}
