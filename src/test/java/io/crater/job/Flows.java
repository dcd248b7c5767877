package io.crater.job;

import static io.crater.Api.admin;
import static io.crater.Api.as;

import java.util.List;
import java.util.Map;

/** What the end-to-end job flow tests do through the API: accounts with quota, submissions, states. */
public final class Flows {

    private Flows() {}

    /** Creates a team account with the given quota lines and members (role member). */
    public static void account(String slug, List<Map<String, String>> quota, String... members) {
        admin().body(Map.of("slug", slug, "name", slug)).post("/api/v1/accounts");
        admin().body(Map.of("items", quota))
                .put("/api/v1/accounts/" + slug + "/quota")
                .then()
                .statusCode(200);
        for (String m : members) {
            admin().body(Map.of("role", "member")).put("/api/v1/accounts/" + slug + "/members/" + m);
        }
    }

    /** A quota line. */
    public static Map<String, String> line(String resource, String guaranteed, String max) {
        return Map.of("resource", resource, "guaranteed", guaranteed, "max", max);
    }

    /** Submits a job to an account; its id. */
    public static String submit(String token, String account, Map<String, Object> body) {
        return as(token)
                .header("X-Crater-Account", account)
                .body(body)
                .post("/api/v1/jobs")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
    }

    public static String state(String token, String id) {
        return as(token).get("/api/v1/jobs/" + id).then().extract().path("job.state");
    }

    /** Waits (up to 30 s) until the job is running, as its owner sees it. */
    public static void awaitRunning(String token, String id) {
        org.awaitility.Awaitility.await()
                .atMost(java.time.Duration.ofSeconds(30))
                .until(() -> "Running".equals(state(token, id)));
    }
}
