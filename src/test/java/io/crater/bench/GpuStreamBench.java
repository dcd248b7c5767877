package io.crater.bench;

import static io.crater.Api.as;

import io.crater.Api;
import io.crater.CraterTestResource;
import io.crater.job.Flows;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Figures of the live GPU metrics stream on this machine (run by {@code make bench}, never by {@code make test}): 500
 * concurrent followers of three running GPU jobs' streams against the embedded server, with the process's CPU time,
 * heap and RSS per follower beside the same process idle, and the source's queries per job and step. The followers
 * are non-blocking clients in the same JVM, so the figures include their side. It prints figures and asserts nothing
 * about time.
 */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class GpuStreamBench {

    static final int FOLLOWERS = 500;
    static final int JOBS = 3;
    static final String RTX = "nvidia-rtx-4090";
    static final Duration MEASURE = Duration.ofSeconds(30);

    @TestHTTPResource("/")
    URL base;

    /** What one follower received: windows and samples. */
    static final class Counts implements Flow.Subscriber<String> {
        final AtomicInteger windows = new AtomicInteger();
        final AtomicInteger samples = new AtomicInteger();
        Flow.Subscription subscription;

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(String line) {
            if (line.equals("event:window")) {
                windows.incrementAndGet();
            } else if (line.equals("event:sample")) {
                samples.incrementAndGet();
            }
        }

        @Override
        public void onError(Throwable t) {}

        @Override
        public void onComplete() {}
    }

    @Test
    void figures() throws Exception {
        String token = Api.user("bench.gpu", "Bench-pass-2026");
        Flows.account(
                "bench-gpu",
                List.of(Flows.line(RTX, "3", "3"), Flows.line("cpu", "6", "6"), Flows.line("memory", "24Gi", "24Gi")),
                "bench.gpu");
        List<String> jobs = new ArrayList<>();
        for (int i = 0; i < JOBS; i++) {
            Map<String, Object> spec = new HashMap<>();
            spec.put("name", "stream-" + i);
            spec.put("kind", "custom");
            spec.put("image", "python:3.12");
            spec.put("command", List.of("python", "train.py"));
            spec.put("env", Map.of("SIM_GPU_UTIL", Integer.toString(55 + 10 * i)));
            spec.put("resources", Map.of("cpu", "2", "memory", "8Gi", "acceleratorModel", RTX, "accelerators", 1));
            jobs.add(Flows.submit(token, "bench-gpu", spec));
        }
        try {
            jobs.forEach(id -> Flows.awaitRunning(token, id));
            measure(token, jobs);
        } finally {
            jobs.forEach(id -> as(token).post("/api/v1/jobs/" + id + "/stop"));
        }
    }

    void measure(String token, List<String> jobs) throws Exception {
        double step = stepSeconds();
        Usage idle = Usage.over(MEASURE);
        HttpClient http =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        List<Counts> counts = new ArrayList<>();
        List<CompletableFuture<?>> open = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int i = 0; i < FOLLOWERS; i++) {
            Counts c = new Counts();
            counts.add(c);
            HttpRequest req = HttpRequest.newBuilder(
                            URI.create(base + "api/v1/jobs/" + jobs.get(i % jobs.size()) + "/gpu-metrics/stream"))
                    .header("Authorization", "Bearer " + token)
                    .header("Accept", "text/event-stream")
                    .build();
            open.add(http.sendAsync(req, HttpResponse.BodyHandlers.fromLineSubscriber(c)));
        }
        org.awaitility.Awaitility.await()
                .atMost(Duration.ofMinutes(2))
                .until(() -> counts.stream().allMatch(c -> c.windows.get() > 0));
        long connectedMs = (System.nanoTime() - t0) / 1_000_000;
        int samplesBefore = counts.stream().mapToInt(c -> c.samples.get()).sum();
        double queriesBefore = queries();
        Usage followed = Usage.over(MEASURE);
        double reads = queries() - queriesBefore;
        int samples = counts.stream().mapToInt(c -> c.samples.get()).sum() - samplesBefore;
        double steps = MEASURE.toMillis() / 1000.0 / step;
        open.forEach(f -> f.cancel(true));
        counts.forEach(c -> c.subscription.cancel());
        System.out.printf(
                "gpu stream: %d followers of %d jobs' streams (a sample every %.1f s), all connected with their window"
                        + " in %d ms; over %d s: CPU %.2f ms per follower per step (process %.0f ms/s, idle %.0f ms/s);"
                        + " heap +%.1f KiB and RSS +%.1f KiB per follower (heap %d MiB, RSS %d MiB, idle %d / %d MiB);"
                        + " source queries per job per step %.2f; samples received per follower per step %.2f"
                        + " (anchor: the chart's former polling, one gpu-utilisation query per viewer every 30 s,"
                        + " %.1f queries per job per step for %d viewers)%n",
                FOLLOWERS,
                jobs.size(),
                step,
                connectedMs,
                MEASURE.toSeconds(),
                (followed.cpuMs - idle.cpuMs) / (double) FOLLOWERS / steps,
                followed.cpuMs / (double) MEASURE.toSeconds(),
                idle.cpuMs / (double) MEASURE.toSeconds(),
                (followed.heapKiB - idle.heapKiB) / (double) FOLLOWERS,
                (followed.rssKiB - idle.rssKiB) / (double) FOLLOWERS,
                followed.heapKiB / 1024,
                followed.rssKiB / 1024,
                idle.heapKiB / 1024,
                idle.rssKiB / 1024,
                reads / steps / jobs.size(),
                samples / (double) FOLLOWERS / steps,
                FOLLOWERS / (double) jobs.size() * step / 30,
                FOLLOWERS);
        Report.figure("gpu.queries.per.job.step", reads / steps / jobs.size());
    }

    /** The process's CPU time over a span, and its heap (after a GC) and RSS at its end. */
    record Usage(long cpuMs, long heapKiB, long rssKiB) {
        static Usage over(Duration span) throws Exception {
            var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
            long cpu0 = os.getProcessCpuTime();
            Thread.sleep(span.toMillis());
            long cpu = (os.getProcessCpuTime() - cpu0) / 1_000_000;
            System.gc();
            Thread.sleep(500);
            long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / 1024;
            return new Usage(cpu, heap, GpuStreamBench.rssKiB());
        }
    }

    static long rssKiB() throws Exception {
        return Files.readAllLines(Path.of("/proc/self/status")).stream()
                .filter(l -> l.startsWith("VmRSS:"))
                .map(l -> Long.parseLong(l.replaceAll("[^0-9]", "")))
                .findFirst()
                .orElse(-1L);
    }

    static double queries() {
        String text = RestAssured.get("/q/metrics").asString();
        String series = "crater_gpu_metric_queries_total{kind=\"step\"} ";
        return text.lines()
                .filter(l -> l.startsWith(series))
                .mapToDouble(
                        l -> Double.parseDouble(l.substring(series.length()).trim()))
                .findFirst()
                .orElse(0);
    }

    static double stepSeconds() {
        return org.eclipse.microprofile.config.ConfigProvider.getConfig()
                        .getOptionalValue("crater.gpus.stream.step", Duration.class)
                        .orElse(Duration.ofSeconds(5))
                        .toMillis()
                / 1000.0;
    }
}
