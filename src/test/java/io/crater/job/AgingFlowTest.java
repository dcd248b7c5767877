package io.crater.job;

import static io.crater.Api.as;
import static io.crater.job.Flows.line;
import static io.crater.job.Flows.state;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.crater.Api;
import io.crater.CraterTestResource;
import io.crater.idle.IdleFlowTest;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Best-effort FIFO with aging, end to end in the simulated cluster: a job that needs a whole RTX 4090 node
 * waits behind a stream of one-GPU jobs that keep taking every GPU as it frees; once it has waited past the aging
 * tolerance (4 s here) the capacity it needs is held for it, the one-GPU jobs after it wait with
 * {@code CapacityHeldForOlderJob}, and it starts.
 */
@QuarkusTest
@TestProfile(IdleFlowTest.FastIdle.class) // its aging tolerance is 4 s; a boot of its own would cost 20 s
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class AgingFlowTest {

    static final String PW = "Aging-pass-2026";
    static final String RTX = "nvidia-rtx-4090";

    static Map<String, Object> job(String name, int gpus, String duration) {
        Map<String, Object> m = new HashMap<>(Map.of(
                "name",
                name,
                "kind",
                "custom",
                "image",
                "python:3.12",
                "command",
                List.of("python", "run.py"),
                "resources",
                Map.of("cpu", "2", "memory", "8Gi", "acceleratorModel", RTX, "accelerators", gpus)));
        m.put("env", Map.of("SIM_DURATION", duration));
        return m;
    }

    static String submit(String token, Map<String, Object> body) {
        return Flows.submit(token, "ag-team", body);
    }

    @Test
    void aWholeNodeJobIsNotStarvedByAStreamOfSmallOnes() throws Exception {
        String token = Api.user("ag.uma", PW);
        Flows.account(
                "ag-team",
                List.of(line(RTX, "8", "8"), line("cpu", "64", "64"), line("memory", "512Gi", "512Gi")),
                "ag.uma");

        // Both RTX 4090 nodes (4 GPUs each) busy with one-GPU jobs that end at staggered times.
        List<String> small = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            small.add(submit(token, job("fill-" + i, 1, String.format("%.1fs", 3 + i * 0.4))));
        }
        await().atMost(Duration.ofSeconds(30))
                .until(() -> small.stream()
                        .allMatch(id -> List.of("Running", "Succeeded").contains(state(token, id))));

        String whole = submit(token, job("whole-node", 4, "5s"));
        long t0 = System.currentTimeMillis();
        // A stream of one-GPU jobs: without aging, each GPU that frees goes to the next of them.
        List<String> stream = new ArrayList<>();
        boolean heldSeen = false;
        while (System.currentTimeMillis() - t0 < 60_000 && !state(token, whole).equals("Running")) {
            stream.add(submit(token, job("stream-" + stream.size(), 1, "3s")));
            Thread.sleep(300);
            for (int i = Math.max(0, stream.size() - 4); i < stream.size() && !heldSeen; i++) {
                List<String> codes = as(token)
                        .get("/api/v1/jobs/" + stream.get(i) + "/wait")
                        .then()
                        .extract()
                        .path("reasons.code");
                heldSeen = codes != null && codes.contains("CapacityHeldForOlderJob");
            }
        }
        double waited = (System.currentTimeMillis() - t0) / 1000.0;
        System.out.printf(
                "aging: the whole-node job was %s %.1f s after submission; %d one-GPU jobs arrived meanwhile%n",
                state(token, whole), waited, stream.size());
        assertThat(state(token, whole))
                .as("the whole-node job starts (after %.1f s)", waited)
                .isEqualTo("Running");
        assertThat(stream).as("one-GPU jobs kept arriving while it waited").hasSizeGreaterThan(5);
        assertThat(stream.stream().filter(id -> !state(token, id).equals("Queued")))
                .as("some one-GPU jobs passed it before it had waited the tolerance")
                .isNotEmpty();
        assertThat(heldSeen)
                .as("a one-GPU job arriving after the tolerance waited with CapacityHeldForOlderJob")
                .isTrue();
        for (String id : stream) {
            as(token).post("/api/v1/jobs/" + id + "/stop");
        }
        as(token).post("/api/v1/jobs/" + whole + "/stop");
    }

    @Test
    void aJobAskingMoreThanItsAccountsMaxNeverHoldsTheQuota() throws Exception {
        String token = Api.user("ag.max", PW);
        Flows.account(
                "ag-small",
                List.of(line(RTX, "2", "2"), line("cpu", "16", "16"), line("memory", "64Gi", "64Gi")),
                "ag.max");
        String tooBig = Flows.submit(token, "ag-small", job("four", 4, "5s"));
        Thread.sleep(5_000); // past the 4 s tolerance
        String small = Flows.submit(token, "ag-small", job("one", 1, "2s"));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> List.of("Running", "Succeeded").contains(state(token, small)));
        assertThat(state(token, tooBig)).isEqualTo("Queued");
        as(token).post("/api/v1/jobs/" + tooBig + "/stop");
    }
}
