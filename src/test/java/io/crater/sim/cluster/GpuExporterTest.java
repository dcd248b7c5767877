package io.crater.sim.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.crater.sim.Simulator;
import io.crater.volcano.VolcanoJob;
import io.crater.volcano.VolcanoTask;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The simulated GPU exporter: the utilisation profiles of SIM_GPU_UTIL and the samples of running pods. */
class GpuExporterTest {

    static final String NS = "crater-jobs";
    static Simulator sim;
    static KubernetesClient client;

    @BeforeAll
    static void start() {
        sim = new Simulator(Simulator.Settings.defaults(Fleet.defaults(), NS).sampled("0.2s"), Clock.systemUTC());
        client = Simulator.clientFor(sim.start(0));
    }

    @AfterAll
    static void stop() {
        client.close();
        sim.close();
    }

    /** A one-pod Volcano Job on RTX 4090s with the given kind label and SIM_GPU_UTIL (null: none). */
    static VolcanoJob job(String name, int gpus, String kind, String util) {
        VolcanoJob job = new VolcanoJob();
        job.getMetadata().setName(name);
        job.getMetadata().setNamespace(NS);
        job.getSpec().schedulerName = "volcano";
        job.getSpec().queue = "default";
        job.getSpec().minAvailable = 1;
        Map<String, String> env = new LinkedHashMap<>();
        if (util != null) {
            env.put("SIM_GPU_UTIL", util);
        }
        PodTemplateSpec template = new PodTemplateSpecBuilder()
                .withNewMetadata()
                .withLabels(Map.of("crater.io/kind", kind))
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("main")
                .withImage("python:3.12")
                .withEnv(env.entrySet().stream()
                        .map(e -> new io.fabric8.kubernetes.api.model.EnvVar(e.getKey(), e.getValue(), null))
                        .toList())
                .withNewResources()
                .withRequests(Map.of(
                        "cpu", new Quantity("1"),
                        "memory", new Quantity("1Gi"),
                        "nvidia.com/gpu", new Quantity(Integer.toString(gpus))))
                .withLimits(Map.of("nvidia.com/gpu", new Quantity(Integer.toString(gpus))))
                .endResources()
                .endContainer()
                .withNodeSelector(Map.of("nvidia.com/gpu.product", "NVIDIA-GeForce-RTX-4090"))
                .withRestartPolicy("Never")
                .endSpec()
                .build();
        job.getSpec().tasks = List.of(new VolcanoTask("main", 1, template));
        return job;
    }

    static List<GpuSeries> samples(String job) {
        return sim.gpuSamples(NS, job + "-main-0", Instant.now().minusSeconds(60), Instant.now());
    }

    @Test
    void profilesReadAsDocumented() {
        assertThat(GpuExporter.parse("90")).containsExactly(new GpuExporter.Segment(90, null));
        assertThat(GpuExporter.parse("80@60s,0"))
                .containsExactly(new GpuExporter.Segment(80, Duration.ofSeconds(60)), new GpuExporter.Segment(0, null));
        assertThat(GpuExporter.parse("busy")).isNull();
        assertThat(GpuExporter.parse("120")).isNull();
        assertThat(GpuExporter.parse("50@soon")).isNull();
        List<GpuExporter.Segment> p = GpuExporter.parse("0@30s,100@10s,5");
        assertThat(GpuExporter.at(p, Duration.ofSeconds(10))).isEqualTo(0);
        assertThat(GpuExporter.at(p, Duration.ofSeconds(35))).isEqualTo(100);
        assertThat(GpuExporter.at(p, Duration.ofSeconds(40))).isEqualTo(5);
        assertThat(GpuExporter.at(p, Duration.ofHours(3))).isEqualTo(5);
        assertThat(GpuExporter.at(GpuExporter.parse("80@60s"), Duration.ofHours(1)))
                .as("the last value holds")
                .isEqualTo(80);
    }

    @Test
    void runningPodsWithAcceleratorsAreSampledPerAccelerator() {
        client.resources(VolcanoJob.class)
                .inNamespace(NS)
                // 80 % for 3 s: the phase counts from the pod's start time, kept to the second as Kubernetes keeps it,
                // so a 1 s phase could be nearly over by the time the pod is first seen running.
                .resource(job("c-gpu-busy", 2, "custom", "80@3s,3"))
                .create();
        client.resources(VolcanoJob.class)
                .inNamespace(NS)
                .resource(job("c-gpu-nb", 1, "jupyter", null))
                .create();
        client.resources(VolcanoJob.class)
                .inNamespace(NS)
                .resource(job("c-gpu-batch", 1, "custom", null))
                .create();
        client.resources(VolcanoJob.class)
                .inNamespace(NS)
                .resource(job("c-gpu-none", 1, "jupyter", "none"))
                .create();
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            List<GpuSeries> busy = samples("c-gpu-busy");
            assertThat(busy)
                    .extracting(GpuSeries::accelerator)
                    .as("named by the cards the pod holds on its node")
                    .hasSize(2)
                    .containsExactlyElementsOf(sim.gpuCards(NS, "c-gpu-busy-main-0").stream()
                            .map(String::valueOf)
                            .toList());
            assertThat(busy.get(0).samples())
                    .extracting(GpuSeries.Sample::percent)
                    .contains(80.0, 3.0);
            assertThat(busy.get(0)
                            .samples()
                            .get(busy.get(0).samples().size() - 1)
                            .percent())
                    .isEqualTo(3.0);
            assertThat(samples("c-gpu-nb"))
                    .singleElement()
                    .satisfies(s -> assertThat(s.samples())
                            .isNotEmpty()
                            .allSatisfy(x -> assertThat(x.percent()).isEqualTo(0.0)));
            assertThat(samples("c-gpu-batch"))
                    .singleElement()
                    .satisfies(s -> assertThat(s.samples())
                            .isNotEmpty()
                            .allSatisfy(x -> assertThat(x.percent()).isEqualTo(90.0)));
        });
        assertThat(samples("c-gpu-none")).as("SIM_GPU_UTIL=none: never sampled").isEmpty();
        // Two samples at least, to see the interval between them (the first may be all the await above saw).
        await().atMost(Duration.ofSeconds(20))
                .until(() -> samples("c-gpu-nb").get(0).samples().size() >= 2);
        List<GpuSeries.Sample> taken = samples("c-gpu-nb").get(0).samples();
        assertThat(Duration.between(
                        taken.get(taken.size() - 2).at(),
                        taken.get(taken.size() - 1).at()))
                .as("one sample per interval (0.2 s) at the simulator's tick")
                .isLessThan(Duration.ofSeconds(1));
        assertThat(Simulator.at(sim.url())).contains(sim);

        // A deleted pod's samples are kept for a while, as Prometheus keeps a gone pod's series, so usage is
        // measured to the job's end.
        client.resources(VolcanoJob.class).inNamespace(NS).withName("c-gpu-nb").delete();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> client.pods().inNamespace(NS).list().getItems().stream()
                        .noneMatch(p -> p.getMetadata().getName().startsWith("c-gpu-nb-")));
        assertThat(sim.gpuPods(NS, "c-gpu-nb-")).containsExactly("c-gpu-nb-main-0");
        assertThat(samples("c-gpu-nb")).isNotEmpty();
    }

    @Test
    void theDcgmEndpointServesEveryNvidiaCardWithItsHoldersReading() throws Exception {
        client.resources(VolcanoJob.class)
                .inNamespace(NS)
                .resource(job("c-dcgm-busy", 2, "custom", "70"))
                .create();
        client.resources(VolcanoJob.class)
                .inNamespace(NS)
                .resource(job("c-dcgm-none", 1, "custom", "none"))
                .create();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> sim.gpuCards(NS, "c-dcgm-busy-main-0").size() == 2
                        && sim.gpuCards(NS, "c-dcgm-none-main-0").size() == 1);
        java.net.http.HttpResponse<String> r = java.net.http.HttpClient.newHttpClient()
                .send(
                        java.net.http.HttpRequest.newBuilder(java.net.URI.create(sim.dcgmUrl()))
                                .build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).contains("text/plain; version=0.0.4; charset=utf-8");
        Map<String, DcgmCounters.Family> defaults = new java.util.LinkedHashMap<>(DcgmCounters.defaults());
        DcgmExpositionTest.TURNED_ON.forEach(
                name -> defaults.put(name, DcgmCounters.optional().get(name)));
        DcgmCounters.families(r.body())
                .forEach((name, family) -> assertThat(defaults.get(name))
                        .as(name + " is one of dcgm-exporter's default counters (or one turned on), with its type")
                        .isEqualTo(family));
        List<String> util = r.body()
                .lines()
                .filter(l -> l.startsWith("DCGM_FI_DEV_GPU_UTIL{"))
                .toList();
        java.util.regex.Pattern card = java.util.regex.Pattern.compile("\\{gpu=\"(\\d+)\".*Hostname=\"([^\"]+)\"");
        java.util.Set<String> served = new java.util.TreeSet<>();
        for (String line : util) {
            java.util.regex.Matcher m = card.matcher(line);
            assertThat(m.find()).as(line).isTrue();
            served.add(m.group(2) + "/" + m.group(1));
        }
        String node = client.pods()
                .inNamespace(NS)
                .withName("c-dcgm-busy-main-0")
                .get()
                .getSpec()
                .getNodeName();
        for (int i : sim.gpuCards(NS, "c-dcgm-busy-main-0")) {
            assertThat(util)
                    .as("card %d of %s, held by the busy pod", i, node)
                    .anySatisfy(l -> assertThat(l)
                            .startsWith("DCGM_FI_DEV_GPU_UTIL{gpu=\"" + i + "\"")
                            .contains("Hostname=\"" + node + "\"")
                            .contains("modelName=\"NVIDIA GeForce RTX 4090\"")
                            .contains(",container=\"main\",namespace=\"crater-jobs\",pod=\"c-dcgm-busy-main-0\"}")
                            .endsWith(" 70"));
        }
        assertThat(util).noneMatch(l -> l.contains("pod=\"c-dcgm-none-main-0\""));
        String noneNode = client.pods()
                .inNamespace(NS)
                .withName("c-dcgm-none-main-0")
                .get()
                .getSpec()
                .getNodeName();
        assertThat(served)
                .as("a card held by a pod the exporter never sees has no series")
                .doesNotContain(
                        noneNode + "/" + sim.gpuCards(NS, "c-dcgm-none-main-0").get(0));
        assertThat(served).as("NVIDIA cards only").noneMatch(s -> s.startsWith("ascend-"));
        int unseen = sim.gpuCards(NS, "c-dcgm-none-main-0").size()
                + sim.gpuCards(NS, "c-gpu-none-main-0").size();
        assertThat(served)
                .as("every other NVIDIA card of the default fleet (4 × 8 A100, 2 × 8 H100, 2 × 4 RTX 4090)")
                .hasSize(56 - unseen);
        client.resources(VolcanoJob.class)
                .inNamespace(NS)
                .withName("c-dcgm-busy")
                .delete();
        client.resources(VolcanoJob.class)
                .inNamespace(NS)
                .withName("c-dcgm-none")
                .delete();
    }
}
