package io.crater.job;

import static io.crater.Api.admin;
import static io.crater.Api.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import io.crater.Api;
import io.crater.CraterTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** A client's retry with the same Idempotency-Key answers the job the first submission created. */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class IdempotentSubmitTest {

    static final String PW = "Idem-pass-2026";

    static Map<String, Object> job(String name) {
        return Map.of(
                "name",
                name,
                "kind",
                "custom",
                "image",
                "busybox",
                "command",
                List.of("sleep", "1"),
                "resources",
                Map.of("cpu", "1", "memory", "1Gi"));
    }

    static long count(String token, String name) {
        List<?> items = as(token)
                .get("/api/v1/jobs?mine=true&limit=200")
                .then()
                .statusCode(200)
                .extract()
                .path("items.findAll { it.name == '" + name + "' }");
        return items.size();
    }

    @Test
    void retriesAnswerTheFirstJobAndCreateNothing() throws Exception {
        String ida = Api.user("idem.ida", PW);
        String other = Api.user("idem.other", PW);
        admin().body(Map.of("slug", "idem-team", "name", "idem-team")).post("/api/v1/accounts");
        admin().body(Map.of("role", "member")).put("/api/v1/accounts/idem-team/members/idem.ida");

        String first = as(ida).header("Idempotency-Key", "retry-1")
                .body(job("idem-a"))
                .post("/api/v1/jobs")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        as(ida).header("Idempotency-Key", "retry-1")
                .body(job("idem-a"))
                .post("/api/v1/jobs")
                .then()
                .statusCode(200)
                .header("Idempotent-Replayed", "true")
                .body("id", equalTo(first));
        assertThat(count(ida, "idem-a")).isEqualTo(1);

        // The key with another request (another body, or another account) is refused and creates nothing.
        as(ida).header("Idempotency-Key", "retry-1")
                .body(job("idem-b"))
                .post("/api/v1/jobs")
                .then()
                .statusCode(422)
                .body("code", equalTo("IdempotencyKeyReused"));
        as(ida).header("Idempotency-Key", "retry-1")
                .header("X-Crater-Account", "idem-team")
                .body(job("idem-a"))
                .post("/api/v1/jobs")
                .then()
                .statusCode(422);
        assertThat(count(ida, "idem-b")).isZero();
        as(ida).header("Idempotency-Key", "bad key with spaces")
                .body(job("idem-c"))
                .post("/api/v1/jobs")
                .then()
                .statusCode(400)
                .body("code", equalTo("InvalidIdempotencyKey"));
        assertThat(count(ida, "idem-c")).isZero();

        // Keys are the user's own: another user's same key is another submission.
        String theirs = as(other)
                .header("Idempotency-Key", "retry-1")
                .body(job("idem-a"))
                .post("/api/v1/jobs")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        assertThat(theirs).isNotEqualTo(first);

        // Eight concurrent retries of one submission: one job.
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<String>> answers = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            answers.add(pool.submit(() -> as(ida).header("Idempotency-Key", "burst-1")
                    .body(job("idem-burst"))
                    .post("/api/v1/jobs")
                    .then()
                    .extract()
                    .path("id")));
        }
        Set<String> ids = new HashSet<>();
        for (Future<String> f : answers) {
            ids.add(f.get());
        }
        pool.shutdown();
        assertThat(ids).hasSize(1).doesNotContainNull();
        assertThat(count(ida, "idem-burst")).isEqualTo(1);
    }
}
