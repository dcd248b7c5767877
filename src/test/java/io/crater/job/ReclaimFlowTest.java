package io.crater.job;

import static io.crater.Api.admin;
import static io.crater.Api.as;
import static io.crater.job.Flows.line;
import static io.crater.job.Flows.state;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import io.crater.Api;
import io.crater.CraterTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Lent capacity taken back: an account borrowing the whole H100 fleet (16) loses its newest job when an account
 * within its guarantee asks for 8; the borrower's owner sees who claimed it; the older borrowing job runs on.
 */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class ReclaimFlowTest {

    static final String PW = "Reclaim-pass-2026";
    static final String H100 = "nvidia-h100-80gb";

    static Map<String, Object> job(String name) {
        return Map.of(
                "name",
                name,
                "kind",
                "custom",
                "image",
                "python:3.12",
                "command",
                List.of("python", "train.py"),
                "resources",
                Map.of("cpu", "8", "memory", "64Gi", "acceleratorModel", H100, "accelerators", 8));
    }

    static String submit(String token, String account, String name) {
        return Flows.submit(token, account, job(name));
    }

    static void account(String slug, String guaranteed, String max, String member) {
        Flows.account(
                slug,
                List.of(line(H100, guaranteed, max), line("cpu", "64", "64"), line("memory", "512Gi", "512Gi")),
                member);
    }

    @Test
    void anAccountWithinItsGuaranteeGetsTheCapacityABorrowerHolds() {
        String bo = Api.user("rc.borrower", PW);
        String gi = Api.user("rc.owner", PW);
        account("rc-borrow", "0", "16", "rc.borrower");
        account("rc-own", "8", "8", "rc.owner");

        String older = submit(bo, "rc-borrow", "older");
        await().atMost(Duration.ofSeconds(40)).until(() -> state(bo, older).equals("Running"));
        String newer = submit(bo, "rc-borrow", "newer");
        await().atMost(Duration.ofSeconds(40)).until(() -> state(bo, newer).equals("Running"));
        as(bo).get("/api/v1/jobs/" + newer).then().body("job.borrowing", equalTo(true));

        String claim = submit(gi, "rc-own", "mine");
        await().atMost(Duration.ofSeconds(60)).until(() -> state(gi, claim).equals("Running"));
        await().atMost(Duration.ofSeconds(30)).until(() -> state(bo, newer).equals("Stopped"));
        as(bo).get("/api/v1/jobs/" + newer)
                .then()
                .body("stateReason", equalTo("Reclaimed"))
                .body("stateMessage", containsString("rc-own"))
                .body("history.reason", hasItem("Reclaimed"));
        as(bo).get("/api/v1/me/notifications").then().body("items.kind", hasItem("job.reclaimed"));
        as(bo).get("/api/v1/jobs/" + older).then().body("job.state", equalTo("Running"));
        for (String id : List.of(older, claim)) {
            admin().post("/api/v1/jobs/" + id + "/stop").then().statusCode(200);
        }
    }
}
