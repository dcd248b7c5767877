package io.crater.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.crater.sim.cluster.Fleet;
import io.crater.volcano.PodGroup;
import io.crater.volcano.VolcanoJob;
import io.crater.volcano.VolcanoQueue;
import io.crater.volcano.VolcanoTask;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.LogWatch;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The simulated cluster through the Kubernetes API, as Crater and kubectl see it. */
class SimulatorTest {

    static final String NS = "crater-jobs";
    static Simulator sim;
    static KubernetesClient client;

    @BeforeAll
    static void start() {
        sim = new Simulator(Simulator.Settings.defaults(Fleet.defaults(), NS), Clock.systemUTC());
        client = Simulator.clientFor(sim.start(0));
    }

    @AfterAll
    static void stop() {
        client.close();
        sim.close();
    }

    static VolcanoJob job(String name, String queue, int tasks, int gpus, String duration) {
        VolcanoJob job = new VolcanoJob();
        job.getMetadata().setName(name);
        job.getMetadata().setNamespace(NS);
        if (duration != null) {
            job.getMetadata().setAnnotations(Map.of("sim.crater.io/duration", duration));
        }
        job.getSpec().schedulerName = "volcano";
        job.getSpec().queue = queue;
        job.getSpec().minAvailable = tasks;
        PodTemplateSpec template = new PodTemplateSpecBuilder()
                .withNewSpec()
                .addNewContainer()
                .withName("main")
                .withImage("pytorch/pytorch:2.4.0")
                .withNewResources()
                .withRequests(Map.of(
                        "cpu",
                        new Quantity("8"),
                        "memory",
                        new Quantity("64Gi"),
                        "nvidia.com/gpu",
                        new Quantity(Integer.toString(gpus))))
                .withLimits(Map.of("nvidia.com/gpu", new Quantity(Integer.toString(gpus))))
                .endResources()
                .endContainer()
                .withNodeSelector(Map.of("nvidia.com/gpu.product", "NVIDIA-A100-SXM4-80GB"))
                .withRestartPolicy("Never")
                .endSpec()
                .build();
        job.getSpec().tasks = List.of(new VolcanoTask("worker", tasks, template));
        return job;
    }

    @Test
    void gangOfTwoFourGpuPodsIsBoundAndCompletes() {
        client.resources(VolcanoJob.class)
                .inNamespace(NS)
                .resource(job("c-gang1", "default", 2, 4, "2s"))
                .create();
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            List<Pod> pods = client.pods()
                    .inNamespace(NS)
                    .withLabel("volcano.sh/job-name", "c-gang1")
                    .list()
                    .getItems();
            assertThat(pods)
                    .extracting(p -> p.getMetadata().getName())
                    .containsExactlyInAnyOrder("c-gang1-worker-0", "c-gang1-worker-1");
            assertThat(pods)
                    .allSatisfy(p -> assertThat(p.getSpec().getNodeName()).startsWith("a100-"));
        });
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            VolcanoJob j = client.resources(VolcanoJob.class)
                    .inNamespace(NS)
                    .withName("c-gang1")
                    .get();
            assertThat(j.getStatus().state.phase).isEqualTo("Completed");
            assertThat(j.getStatus().succeeded).isEqualTo(2);
        });
        List<Pod> pods = client.pods()
                .inNamespace(NS)
                .withLabel("volcano.sh/job-name", "c-gang1")
                .list()
                .getItems();
        assertThat(pods).allSatisfy(p -> {
            assertThat(p.getStatus().getPhase()).isEqualTo("Succeeded");
            assertThat(p.getStatus()
                            .getContainerStatuses()
                            .get(0)
                            .getState()
                            .getTerminated()
                            .getExitCode())
                    .isZero();
        });
        PodGroup group = client.resources(PodGroup.class).inNamespace(NS).list().getItems().stream()
                .filter(g -> g.getMetadata().getName().startsWith("c-gang1-"))
                .findFirst()
                .orElseThrow();
        assertThat(group.getStatus().phase).isEqualTo("Completed");
        assertThat(group.getSpec().minMember).isEqualTo(2);
        assertThat(group.getSpec().minResources).containsEntry("nvidia.com/gpu", "8");
    }

    @Test
    void jobBeyondItsQueueCapabilityStaysPendingWithAnUnschedulableEvent() {
        VolcanoQueue queue = new VolcanoQueue();
        queue.getMetadata().setName("crater-small");
        queue.getSpec().capability = Map.of("nvidia.com/gpu", "4");
        queue.getSpec().reclaimable = false;
        client.resources(VolcanoQueue.class).resource(queue).create();
        client.resources(VolcanoJob.class)
                .inNamespace(NS)
                .resource(job("c-toobig", "crater-small", 2, 4, null))
                .create();
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            List<Event> events = client.v1().events().inNamespace(NS).list().getItems().stream()
                    .filter(e -> e.getInvolvedObject().getName().startsWith("c-toobig-")
                            && "Unschedulable".equals(e.getReason()))
                    .toList();
            assertThat(events).isNotEmpty();
            assertThat(events.get(0).getMessage())
                    .contains("nvidia.com/gpu requested 8")
                    .contains("capability 4");
        });
        assertThat(client.pods()
                        .inNamespace(NS)
                        .withLabel("volcano.sh/job-name", "c-toobig")
                        .list()
                        .getItems())
                .isEmpty();
        VolcanoJob j = client.resources(VolcanoJob.class)
                .inNamespace(NS)
                .withName("c-toobig")
                .get();
        assertThat(j.getStatus().state.phase).isEqualTo("Pending");

        // The group is looked at again when nothing about it changed but its queue's capability did.
        VolcanoQueue larger =
                client.resources(VolcanoQueue.class).withName("crater-small").get();
        larger.getSpec().capability = Map.of("nvidia.com/gpu", "8");
        client.resources(VolcanoQueue.class).resource(larger).update();
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(client.pods()
                                .inNamespace(NS)
                                .withLabel("volcano.sh/job-name", "c-toobig")
                                .list()
                                .getItems())
                        .hasSize(2)
                        .allSatisfy(p -> assertThat(p.getStatus().getPhase()).isEqualTo("Running")));
        client.resources(VolcanoJob.class).inNamespace(NS).withName("c-toobig").delete();
    }

    @Test
    void finishedJobIsDeletedWithItsPodsAfterItsTtl() {
        VolcanoJob job = job("c-ttl", "default", 1, 1, "0.2s");
        job.getSpec().ttlSecondsAfterFinished = 1;
        client.resources(VolcanoJob.class).inNamespace(NS).resource(job).create();
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            VolcanoJob j = client.resources(VolcanoJob.class)
                    .inNamespace(NS)
                    .withName("c-ttl")
                    .get();
            return j == null
                    || (j.getStatus() != null
                            && j.getStatus().state != null
                            && "Completed".equals(j.getStatus().state.phase));
        });
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            assertThat(client.resources(VolcanoJob.class)
                            .inNamespace(NS)
                            .withName("c-ttl")
                            .get())
                    .isNull();
            assertThat(client.pods().inNamespace(NS).withName("c-ttl-worker-0").get())
                    .isNull();
        });
    }

    @Test
    void deletingAJobDeletesItsPodsAndPodGroup() {
        client.resources(VolcanoJob.class)
                .inNamespace(NS)
                .resource(job("c-del", "default", 1, 1, null))
                .create();
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            Pod p = client.pods().inNamespace(NS).withName("c-del-worker-0").get();
            return p != null && "Running".equals(p.getStatus().getPhase());
        });
        client.resources(VolcanoJob.class).inNamespace(NS).withName("c-del").delete();
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            assertThat(client.pods().inNamespace(NS).withName("c-del-worker-0").get())
                    .isNull();
            assertThat(client.resources(PodGroup.class).inNamespace(NS).list().getItems())
                    .noneMatch(g -> g.getMetadata().getName().startsWith("c-del-"));
        });
        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(() -> assertThat(sim.usedByNode().values())
                        .allSatisfy(r ->
                                assertThat(r.getOrDefault("nvidia.com/gpu", 0L)).isBetween(0L, 8000L)));
    }

    @Test
    void followedLogDeliversLinesOverTime() throws Exception {
        client.resources(VolcanoJob.class)
                .inNamespace(NS)
                .resource(job("c-log", "default", 1, 1, "4s"))
                .create();
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            Pod p = client.pods().inNamespace(NS).withName("c-log-worker-0").get();
            return p != null && "Running".equals(p.getStatus().getPhase());
        });
        List<Long> arrivals = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        long t0 = System.nanoTime();
        try (LogWatch watch =
                        client.pods().inNamespace(NS).withName("c-log-worker-0").watchLog();
                BufferedReader reader =
                        new BufferedReader(new InputStreamReader(watch.getOutput(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                lines.add(line);
                arrivals.add((System.nanoTime() - t0) / 1_000_000);
            }
        }
        assertThat(lines.get(0)).contains("container main started");
        assertThat(lines).anyMatch(l -> l.startsWith("step "));
        assertThat(lines.get(lines.size() - 1)).contains("exited with code 0");
        // The stream ended only when the container did, and lines kept arriving while it ran.
        assertThat(arrivals.get(arrivals.size() - 1) - arrivals.get(0)).isGreaterThan(1000);
    }
}
