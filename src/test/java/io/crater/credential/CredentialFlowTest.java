package io.crater.credential;

import static io.crater.Api.as;
import static io.crater.job.Flows.line;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;

import io.crater.Api;
import io.crater.CraterTestResource;
import io.crater.Db;
import io.crater.job.Flows;
import io.crater.kube.KubeClients;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.filter.Filter;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Credentials end to end: stored write-only, referenced by a job, seen by the job's shell in the simulated cluster
 * through a Secret the job owns, and found nowhere else: not in any answer of the API, not in any table.
 */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class CredentialFlowTest {

    static final String PW = "Creds-pass-2026";
    static final String ACCOUNT = "cred-lab";

    /** Every response body this test received. */
    final List<String> bodies = Collections.synchronizedList(new ArrayList<>());

    final Filter recorder = (req, res, ctx) -> {
        Response r = ctx.next(req, res);
        bodies.add(r.asString());
        return r;
    };

    RequestSpecification as(String token) {
        return Api.as(token).filter(recorder).header("X-Crater-Account", ACCOUNT);
    }

    static Map<String, Object> job(String name, Map<String, Object> env) {
        return Map.of(
                "name",
                name,
                "kind",
                "custom",
                "image",
                "python:3.12",
                "command",
                List.of("python", "train.py"),
                "env",
                env,
                "resources",
                Map.of("cpu", "1", "memory", "2Gi"));
    }

    @Test
    void aJobGetsTheValueThroughItsSecretAndNothingElseEverShowsIt() throws Exception {
        String owner = Api.user("cred-owner", PW);
        String other = Api.user("cred-other", PW);
        Flows.account(
                ACCOUNT, List.of(line("cpu", "8", "8"), line("memory", "32Gi", "32Gi")), "cred-owner", "cred-other");
        String first = "hf_first_" + UUID.randomUUID().toString().replace("-", "");
        String value = "hf_final_" + UUID.randomUUID().toString().replace("-", "");

        storeAndReplace(owner, first, value);
        othersCannotSeeTouchOrUseIt(other);

        String id = as(owner)
                .body(job("uses-hf", Map.of("HF_TOKEN", Map.of("credential", "hf"), "SIM_DURATION", "10m")))
                .post("/api/v1/jobs")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        try (KubernetesClient k8s =
                KubeClients.forUrl(CraterTestResource.simulator().url())) {
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> "Running"
                            .equals(as(owner)
                                    .get("/api/v1/jobs/" + id)
                                    .then()
                                    .extract()
                                    .path("job.state")));
            assertThat(shell(k8s, "c-" + id + "-main-0", "printenv", "HF_TOKEN"))
                    .isEqualTo(value + "\n");
            Secret secret = k8s.secrets()
                    .inNamespace("crater-jobs")
                    .withName("c-" + id + "-credentials")
                    .get();
            assertThat(secret.getData()).containsOnlyKeys("HF_TOKEN");
            OwnerReference ref = secret.getMetadata().getOwnerReferences().get(0);
            assertThat(ref.getKind()).isEqualTo("Job");
            assertThat(ref.getName()).isEqualTo("c-" + id);

            theJobShowsOnlyTheReference(owner, id);
            as(owner).get("/api/v1/me/credentials/hf").then().statusCode(200).body("lastUsedAt", not(nullValue()));

            as(owner).post("/api/v1/jobs/" + id + "/stop").then().statusCode(200);
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> k8s.secrets()
                                    .inNamespace("crater-jobs")
                                    .withName("c-" + id + "-credentials")
                                    .get()
                            == null);
        }
        Api.admin().filter(recorder).get("/api/v1/audit?limit=200").then().statusCode(200);

        for (String secretText : List.of(first, value)) {
            assertThat(bodies).noneMatch(b -> b.contains(secretText));
            assertThat(everyRow()).noneMatch(row -> row.contains(secretText));
        }
        assertThat(sealedValue()).startsWith("v1:").doesNotContain(value);
        assertThat(Db.count("SELECT count(*) FROM audit_log WHERE actor = 'cred-owner' AND target_type = 'credential'"
                        + " AND target_id = 'hf' AND action IN ('credential.create', 'credential.replace')"))
                .isEqualTo(2);
    }

    private void storeAndReplace(String owner, String first, String value) {
        as(owner)
                .body(Map.of("name", "hf", "kind", "huggingface", "description", "read token", "value", first))
                .post("/api/v1/me/credentials")
                .then()
                .statusCode(201)
                .body("name", equalTo("hf"))
                .body("kind", equalTo("huggingface"))
                .body("description", equalTo("read token"))
                .body("lastUsedAt", nullValue())
                .body("$", not(org.hamcrest.Matchers.hasKey("value")));
        as(owner)
                .body(Map.of("name", "hf", "kind", "huggingface", "value", "again"))
                .post("/api/v1/me/credentials")
                .then()
                .statusCode(409)
                .contentType("application/problem+json")
                .body("code", equalTo("CredentialExists"));
        as(owner)
                .body(Map.of("name", "big", "kind", "generic", "value", "x".repeat(16 * 1024 + 1)))
                .post("/api/v1/me/credentials")
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("errors.field", hasItem("value"))
                .body("errors.message", hasItem("at most 16384 bytes (this one has 16385)"));
        as(owner)
                .body(Map.of("value", value))
                .put("/api/v1/me/credentials/hf")
                .then()
                .statusCode(200)
                .body("description", equalTo("read token"));
        as(owner)
                .get("/api/v1/me/credentials")
                .then()
                .statusCode(200)
                .body("items", hasSize(1))
                .body("items[0].name", equalTo("hf"));
    }

    private void othersCannotSeeTouchOrUseIt(String other) {
        as(other).get("/api/v1/me/credentials").then().statusCode(200).body("items", hasSize(0));
        as(other).get("/api/v1/me/credentials/hf").then().statusCode(404).contentType("application/problem+json");
        as(other)
                .body(Map.of("value", "taken-over"))
                .put("/api/v1/me/credentials/hf")
                .then()
                .statusCode(404);
        as(other).delete("/api/v1/me/credentials/hf").then().statusCode(404);
        as(other)
                .body(job("borrows-hf", Map.of("HF_TOKEN", Map.of("credential", "hf"))))
                .post("/api/v1/jobs")
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("code", equalTo("UnknownCredential"))
                .body("errors[0].field", equalTo("env.HF_TOKEN"))
                .body("errors[0].message", equalTo("you have no credential named 'hf'"));
    }

    private void theJobShowsOnlyTheReference(String owner, String id) {
        as(owner).get("/api/v1/jobs/" + id).then().statusCode(200).body("spec.env.HF_TOKEN.credential", equalTo("hf"));
        as(owner)
                .get("/api/v1/jobs/" + id + "/manifests")
                .then()
                .statusCode(200)
                .body("yaml", containsString("c-" + id + "-credentials"))
                .body("yaml", containsString("secretKeyRef"));
        as(owner).get("/api/v1/jobs/" + id + "/logs").then().statusCode(200);
        as(owner).get("/api/v1/jobs/" + id + "/wait");
    }

    private static String shell(KubernetesClient k8s, String pod, String... command) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = k8s.pods()
                .inNamespace("crater-jobs")
                .withName(pod)
                .writingOutput(out)
                .writingError(new ByteArrayOutputStream())
                .exec(command)
                .exitCode()
                .get(10, TimeUnit.SECONDS);
        assertThat(code).isZero();
        return out.toString(StandardCharsets.UTF_8);
    }

    /** Every row of every table of the database, as text. */
    private static List<String> everyRow() throws Exception {
        List<String> rows = new ArrayList<>();
        try (Connection c = Db.connection();
                Statement s = c.createStatement()) {
            List<String> tables = new ArrayList<>();
            try (ResultSet rs = s.executeQuery(
                    "SELECT quote_ident(table_schema) || '.' || quote_ident(table_name) FROM information_schema.tables"
                            + " WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')")) {
                while (rs.next()) {
                    tables.add(rs.getString(1));
                }
            }
            assertThat(tables).contains("public.credentials", "public.audit_log", "public.jobs");
            for (String table : tables) {
                try (ResultSet rs = s.executeQuery("SELECT t::text FROM " + table + " t")) {
                    while (rs.next()) {
                        rows.add(rs.getString(1));
                    }
                }
            }
        }
        return rows;
    }

    private static String sealedValue() throws Exception {
        try (Connection c = Db.connection();
                Statement s = c.createStatement();
                ResultSet rs =
                        s.executeQuery("SELECT c.sealed_value FROM credentials c JOIN users u ON u.id = c.user_id"
                                + " WHERE u.username = 'cred-owner' AND c.name = 'hf'")) {
            assertThat(rs.next()).isTrue();
            return rs.getString(1);
        }
    }
}
