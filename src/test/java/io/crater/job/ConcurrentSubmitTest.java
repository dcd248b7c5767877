package io.crater.job;

import static io.crater.Api.admin;
import static io.crater.Api.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.crater.Api;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A burst of concurrent submissions never takes an account past its quota. */
@QuarkusTest
@QuarkusTestResource(value = io.crater.CraterTestResource.class, restrictToAnnotatedClass = false)
class ConcurrentSubmitTest {

    @Test
    void hundredConcurrentSubmissionsAdmitAtMostTheQuota() throws Exception {
        admin().body(Map.of("slug", "burst-lab", "name", "Burst Lab"))
                .post("/api/v1/accounts")
                .then()
                .statusCode(201);
        admin().body(Map.of(
                        "items",
                        List.of(
                                Map.of("resource", "nvidia-a100-80gb", "guaranteed", "8", "max", "8"),
                                Map.of("resource", "cpu", "guaranteed", "200", "max", "200"),
                                Map.of("resource", "memory", "guaranteed", "1Ti", "max", "1Ti"))))
                .put("/api/v1/accounts/burst-lab/quota")
                .then()
                .statusCode(200);
        List<String> tokens = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            tokens.add(Api.user("burst.user" + i, "Burst-pass-2026"));
            admin().body(Map.of("role", "member"))
                    .put("/api/v1/accounts/burst-lab/members/burst.user" + i)
                    .then()
                    .statusCode(200);
        }
        AtomicLong worst = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(16);
        List<Future<String>> ids = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            String token = tokens.get(i % tokens.size());
            int n = i;
            ids.add(pool.submit(() -> as(token)
                    .header("X-Crater-Account", "burst-lab")
                    .body(Map.of(
                            "name",
                            "burst-" + n,
                            "kind",
                            "custom",
                            "image",
                            "busybox",
                            "command",
                            List.of("sleep", "infinity"),
                            "resources",
                            Map.of(
                                    "cpu",
                                    "1",
                                    "memory",
                                    "1Gi",
                                    "acceleratorModel",
                                    "nvidia-a100-80gb",
                                    "accelerators",
                                    1)))
                    .post("/api/v1/jobs")
                    .then()
                    .statusCode(201)
                    .extract()
                    .<String>path("id")));
        }
        // While the burst lands and admission runs, the account's usage never passes its max.
        Future<?> watcher = pool.submit(() -> {
            for (int k = 0; k < 60; k++) {
                String used = admin().get("/api/v1/accounts/burst-lab")
                        .then()
                        .extract()
                        .path("quota.find { it.resource == 'nvidia-a100-80gb' }.used");
                worst.accumulateAndGet(Long.parseLong(used), Math::max);
                Thread.sleep(100);
            }
            return null;
        });
        List<String> all = new ArrayList<>();
        for (Future<String> f : ids) {
            all.add(f.get());
        }
        watcher.get();
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(active(all)).isEqualTo(8));
        Thread.sleep(3000);
        assertThat(active(all)).isEqualTo(8);
        assertThat(worst.get()).isLessThanOrEqualTo(8);
        String used = admin().get("/api/v1/accounts/burst-lab")
                .then()
                .extract()
                .path("quota.find { it.resource == 'nvidia-a100-80gb' }.used");
        assertThat(used).isEqualTo("8");
        List<String> queued = admin().get("/api/v1/jobs?account=burst-lab&state=Queued&limit=200")
                .then()
                .extract()
                .path("items.id");
        assertThat(queued).hasSize(92);
        for (String id : all) {
            admin().post("/api/v1/jobs/" + id + "/stop");
        }
        pool.shutdownNow();
    }

    private static long active(List<String> ids) {
        List<String> states = admin().get("/api/v1/jobs?account=burst-lab&limit=200")
                .then()
                .extract()
                .path("items.state");
        return states.stream()
                .filter(s -> s.equals("Admitted") || s.equals("Pending") || s.equals("Running"))
                .count();
    }
}
