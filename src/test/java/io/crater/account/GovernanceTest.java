package io.crater.account;

import static io.crater.Api.admin;
import static io.crater.Api.as;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.in;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;

import io.crater.Api;
import io.crater.CraterTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class GovernanceTest {

    static final String PW = "Correct-horse-42";

    @Test
    void usersGetASlugAUidAndAPersonalAccount() {
        admin().body(Map.of(
                        "username",
                        "First.Last",
                        "displayName",
                        "First Last",
                        "email",
                        "first@uni.edu",
                        "password",
                        PW))
                .post("/api/v1/users")
                .then()
                .statusCode(201)
                .body("user.username", equalTo("first.last"))
                .body("user.slug", equalTo("first-last"))
                .body("user.defaultAccount", equalTo("u-first-last"))
                .body("user.uid", notNullValue())
                .body("password", nullValue());
        admin().body(Map.of("username", "FIRST.LAST", "password", PW))
                .post("/api/v1/users")
                .then()
                .statusCode(409)
                .contentType("application/problem+json")
                .body("code", equalTo("UserExists"));
        String token = Api.login("first.last", PW);
        as(token)
                .get("/api/v1/me")
                .then()
                .statusCode(200)
                .body("defaultAccount", equalTo("u-first-last"))
                .body("accounts.slug", hasItem("u-first-last"));
        as(token)
                .get("/api/v1/accounts/u-first-last")
                .then()
                .statusCode(200)
                .body("kind", equalTo("personal"))
                .body("quota.find { it.resource == 'cpu' }.max", equalTo("8"))
                .body("quota.find { it.resource == 'memory' }.max", equalTo("32Gi"));
        // A generated password is shown once.
        admin().body(Map.of("username", "u2024001"))
                .post("/api/v1/users")
                .then()
                .statusCode(201)
                .body("password", notNullValue());
    }

    @Test
    void badUsersAreRefusedAndNothingIsCreated() {
        for (String bad : List.of("a", "has space", "x".repeat(65), "ü-ser", "...")) {
            admin().body(Map.of("username", bad, "password", PW))
                    .post("/api/v1/users")
                    .then()
                    .statusCode(400)
                    .contentType("application/problem+json")
                    .body("errors[0].field", equalTo("username"));
        }
        admin().body(Map.of("username", "shortpw", "password", "123"))
                .post("/api/v1/users")
                .then()
                .statusCode(400)
                .body("errors[0].field", equalTo("password"));
        admin().get("/api/v1/users?q=shortpw").then().statusCode(200).body("items", hasSize(0));
    }

    @Test
    void accountsQuotaMembersLimitsAndAGrant() {
        String lead = Api.user("gov.lead", PW);
        String student = Api.user("gov.student", PW);
        String outsider = Api.user("gov.outsider", PW);
        admin().body(Map.of("slug", "gov-lab", "name", "Governance Lab"))
                .post("/api/v1/accounts")
                .then()
                .statusCode(201)
                .body("slug", equalTo("gov-lab"))
                .body("kind", equalTo("team"));
        admin().body(Map.of("slug", "u-sneaky", "name", "x"))
                .post("/api/v1/accounts")
                .then()
                .statusCode(400);
        admin().body(Map.of("slug", "Bad_Slug", "name", "x"))
                .post("/api/v1/accounts")
                .then()
                .statusCode(400);

        // Quota: bad input refused with field paths, nothing changed.
        admin().body(Map.of("items", List.of(Map.of("resource", "nvidia-a100-80gb", "guaranteed", "8", "max", "4"))))
                .put("/api/v1/accounts/gov-lab/quota")
                .then()
                .statusCode(400)
                .body("errors[0].field", equalTo("items[0].max"));
        admin().body(Map.of("items", List.of(Map.of("resource", "tpu-v9", "guaranteed", "1", "max", "1"))))
                .put("/api/v1/accounts/gov-lab/quota")
                .then()
                .statusCode(400)
                .body("errors[0].field", equalTo("items[0].resource"));
        admin().body(Map.of("items", List.of(Map.of("resource", "cpu", "guaranteed", "-1", "max", "abc"))))
                .put("/api/v1/accounts/gov-lab/quota")
                .then()
                .statusCode(400)
                .body("errors", hasSize(2));
        // Memory without a unit would be bytes: refused, as is an amount beyond the limit (said with the limit).
        admin().body(Map.of(
                        "items",
                        List.of(
                                Map.of("resource", "memory", "guaranteed", "256", "max", "512"),
                                Map.of("resource", "cpu", "guaranteed", "1", "max", "2000000"))))
                .put("/api/v1/accounts/gov-lab/quota")
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body(
                        "errors.find { it.field == 'items[0].guaranteed' }.message",
                        equalTo("memory needs a unit (examples: 512Mi, 64Gi, 1Ti)"))
                .body("errors.field", hasItem("items[0].max"))
                .body(
                        "errors.find { it.field == 'items[1].max' }.message",
                        equalTo("too large: at most 1000000 cores"));
        admin().body(Map.of("items", List.of(Map.of("resource", "memory", "guaranteed", "1Ti", "max", "99999Ti"))))
                .put("/api/v1/accounts/gov-lab/quota")
                .then()
                .statusCode(400)
                .body("errors[0].field", equalTo("items[0].max"))
                .body("errors[0].message", equalTo("too large: at most 8Pi"));
        admin().get("/api/v1/accounts/gov-lab").then().body("quota", hasSize(0));
        admin().body(Map.of(
                        "items",
                        List.of(
                                Map.of("resource", "nvidia-a100-80gb", "guaranteed", "8", "max", "16"),
                                Map.of("resource", "cpu", "guaranteed", "64", "max", "128"))))
                .put("/api/v1/accounts/gov-lab/quota")
                .then()
                .statusCode(200)
                .body("quota.find { it.resource == 'nvidia-a100-80gb' }.maxMilli", equalTo(16000));

        // Only platform admins set quota; members cannot add members; the account admin can.
        as(lead).body(Map.of("items", List.of()))
                .put("/api/v1/accounts/gov-lab/quota")
                .then()
                .statusCode(403);
        admin().body(Map.of("role", "admin"))
                .put("/api/v1/accounts/gov-lab/members/gov.lead")
                .then()
                .statusCode(200)
                .body("role", equalTo("admin"));
        as(lead).body(Map.of("role", "member"))
                .put("/api/v1/accounts/gov-lab/members/gov.student")
                .then()
                .statusCode(200)
                .body("fileAccess", equalTo("rw"));
        as(student)
                .body(Map.of("role", "member"))
                .put("/api/v1/accounts/gov-lab/members/gov.outsider")
                .then()
                .statusCode(403)
                .body("code", equalTo("NotAccountAdmin"));
        as(outsider).get("/api/v1/accounts/gov-lab").then().statusCode(403).body("code", equalTo("NotAMember"));
        as(outsider)
                .header("X-Crater-Account", "gov-lab")
                .get("/api/v1/me")
                .then()
                .statusCode(403);
        as(student)
                .header("X-Crater-Account", "gov-lab")
                .get("/api/v1/me")
                .then()
                .statusCode(200);

        // Limits: account default + a per-member override.
        as(lead).body(Map.of("resources", Map.of("nvidia-a100-80gb", "4"), "maxRunningJobs", 3))
                .put("/api/v1/accounts/gov-lab/limits")
                .then()
                .statusCode(200);
        as(lead).body(Map.of("resources", Map.of("nvidia-a100-80gb", "2")))
                .put("/api/v1/accounts/gov-lab/members/gov.student/limits")
                .then()
                .statusCode(200);
        as(lead).body(Map.of("resources", Map.of("nvidia-a100-80gb", "-2")))
                .put("/api/v1/accounts/gov-lab/members/gov.student/limits")
                .then()
                .statusCode(400)
                .body("errors[0].field", equalTo("resources.nvidia-a100-80gb"))
                .body("errors[0].message", equalTo("must not be negative"));
        as(student)
                .get("/api/v1/accounts/gov-lab/members")
                .then()
                .statusCode(200)
                .body(
                        "items.find { it.username == 'gov.student' }.effectiveLimits.resources.'nvidia-a100-80gb'",
                        equalTo("2"))
                .body("items.find { it.username == 'gov.student' }.effectiveLimits.maxRunningJobs", equalTo(3));

        // A grant: the student asks, nobody approves their own, an account admin may not decide quota, a platform admin
        // does.
        String until = Instant.now().plus(1, ChronoUnit.DAYS).toString();
        int id = as(student)
                .body(Map.of(
                        "kind",
                        "quota-grant",
                        "account",
                        "gov-lab",
                        "resource",
                        "nvidia-a100-80gb",
                        "amount",
                        "4",
                        "until",
                        until,
                        "reason",
                        "deadline"))
                .post("/api/v1/approvals")
                .then()
                .statusCode(201)
                .body("state", equalTo("pending"))
                .extract()
                .path("id");
        as(student)
                .body(Map.of())
                .post("/api/v1/approvals/" + id + "/approve")
                .then()
                .statusCode(403)
                .body("code", equalTo("SelfApproval"));
        as(lead).body(Map.of())
                .post("/api/v1/approvals/" + id + "/approve")
                .then()
                .statusCode(403)
                .body("code", equalTo("NotPlatformAdmin"));
        as(lead).get("/api/v1/accounts/gov-lab")
                .then()
                .body("quota.find { it.resource == 'nvidia-a100-80gb' }.grantedMilli", equalTo(0));
        admin().body(Map.of("comment", "ok"))
                .post("/api/v1/approvals/" + id + "/approve")
                .then()
                .statusCode(200)
                .body("state", equalTo("approved"))
                .body("reviewer.username", equalTo("admin"));
        admin().body(Map.of())
                .post("/api/v1/approvals/" + id + "/approve")
                .then()
                .statusCode(409)
                .body("code", equalTo("ApprovalNotPending"));
        as(student)
                .get("/api/v1/accounts/gov-lab")
                .then()
                .statusCode(200)
                .body("quota.find { it.resource == 'nvidia-a100-80gb' }.granted", equalTo("4"))
                .body("quota.find { it.resource == 'nvidia-a100-80gb' }.maxMilli", equalTo(16000))
                .body("quota.find { it.resource == 'nvidia-a100-80gb' }.grantedMilli", equalTo(4000));
        as(student)
                .get("/api/v1/me/notifications")
                .then()
                .statusCode(200)
                .body("items[0].kind", equalTo("approval.approved"));
        as(student).get("/api/v1/approvals?scope=mine").then().body("items[0].id", equalTo(id));
        // Bad approval requests.
        as(student)
                .body(Map.of(
                        "kind",
                        "quota-grant",
                        "account",
                        "gov-lab",
                        "resource",
                        "nvidia-a100-80gb",
                        "amount",
                        "-1",
                        "until",
                        "2001-01-01T00:00:00Z",
                        "reason",
                        "x"))
                .post("/api/v1/approvals")
                .then()
                .statusCode(400)
                .body("errors", hasSize(2));
        as(outsider)
                .body(Map.of(
                        "kind",
                        "quota-grant",
                        "account",
                        "gov-lab",
                        "resource",
                        "cpu",
                        "amount",
                        "1",
                        "until",
                        until,
                        "reason",
                        "x"))
                .post("/api/v1/approvals")
                .then()
                .statusCode(403);

        // The audit trail has every change, with who and what; the refusals are logged separately.
        admin().get("/api/v1/audit?account=gov-lab&limit=200")
                .then()
                .statusCode(200)
                .body("items.action", hasItem("quota.update"))
                .body("items.action", hasItem("member.add"))
                .body("items.action", hasItem("approval.approve"))
                .body("items.find { it.action == 'quota.update' }.after.'nvidia-a100-80gb'", equalTo("8/16"));
        admin().get("/api/v1/audit/denied")
                .then()
                .statusCode(200)
                .body("items.code", hasItem("SelfApproval"))
                .body("items.code", hasItem("NotAMember"));
        as(student).get("/api/v1/audit").then().statusCode(403);
    }

    @Test
    void personalAccessTokensWorkUntilRevoked() {
        String token = Api.user("gov.pat", PW);
        String secret = as(token)
                .body(Map.of("name", "laptop"))
                .post("/api/v1/me/tokens")
                .then()
                .statusCode(201)
                .body("token", startsWith("crt_"))
                .extract()
                .path("token");
        int id = as(token)
                .get("/api/v1/me/tokens")
                .then()
                .body("items", hasSize(1))
                .body("items[0].token", nullValue())
                .extract()
                .path("items[0].id");
        given().auth().oauth2(secret).get("/api/v1/me").then().statusCode(200).body("username", equalTo("gov.pat"));
        // Every endpoint, with the token and a current account named, the way the CLI and the console call them.
        given().auth()
                .oauth2(secret)
                .header("X-Crater-Account", "u-gov-pat")
                .get("/api/v1/cluster/accelerators")
                .then()
                .statusCode(200);
        as(token)
                .header("X-Crater-Account", "u-gov-pat")
                .get("/api/v1/accelerator-models")
                .then()
                .statusCode(200);
        as(token).get("/api/v1/me/tokens").then().body("items[0].lastUsedAt", notNullValue());
        as(token).delete("/api/v1/me/tokens/" + id).then().statusCode(204);
        given().auth().oauth2(secret).get("/api/v1/me").then().statusCode(401);
        as(token)
                .body(Map.of("name", "old", "expiresAt", "2001-01-01T00:00:00Z"))
                .post("/api/v1/me/tokens")
                .then()
                .statusCode(400);
    }

    @Test
    void sshKeysAreValidatedAndFingerprinted() {
        String token = Api.user("gov.ssh", PW);
        String key = ed25519Line(newEd25519Key()) + " someone@laptop";
        as(token)
                .body(Map.of("name", "laptop", "publicKey", key))
                .post("/api/v1/me/ssh-keys")
                .then()
                .statusCode(201)
                .body("type", equalTo("ssh-ed25519"))
                .body("fingerprint", startsWith("SHA256:"));
        as(token)
                .body(Map.of("name", "again", "publicKey", key))
                .post("/api/v1/me/ssh-keys")
                .then()
                .statusCode(409);
        as(token)
                .body(Map.of("name", "bad", "publicKey", "ssh-ed25519 not-base64!"))
                .post("/api/v1/me/ssh-keys")
                .then()
                .statusCode(400)
                .body("code", equalTo("InvalidSshKey"))
                .body("detail", startsWith("not an OpenSSH public key: expected a line like `ssh-ed25519 AAAA"))
                .body("errors[0].field", equalTo("publicKey"));
        as(token)
                .body(Map.of("name", "priv", "publicKey", "-----BEGIN OPENSSH PRIVATE KEY-----"))
                .post("/api/v1/me/ssh-keys")
                .then()
                .statusCode(400);
        as(token).get("/api/v1/me/ssh-keys").then().body("items", hasSize(1));
    }

    static java.security.PublicKey newEd25519Key() {
        try {
            return java.security.KeyPairGenerator.getInstance("Ed25519")
                    .generateKeyPair()
                    .getPublic();
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** OpenSSH's one-line form: "ssh-ed25519 " + base64(string "ssh-ed25519", string key). */
    static String ed25519Line(java.security.PublicKey key) {
        byte[] x509 = key.getEncoded();
        byte[] raw = java.util.Arrays.copyOfRange(x509, x509.length - 32, x509.length);
        byte[] type = "ssh-ed25519".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(4 + type.length + 4 + raw.length);
        b.putInt(type.length).put(type).putInt(raw.length).put(raw);
        return "ssh-ed25519 " + java.util.Base64.getEncoder().encodeToString(b.array());
    }

    @Test
    void csvImportCreatesTheGoodRowsAndReportsTheBadOnes() {
        admin().body(Map.of("slug", "course-101", "name", "Course 101"))
                .post("/api/v1/accounts")
                .then()
                .statusCode(201);
        String csv = """
                username,displayName,email,account,accountRole
                s2026001,Student One,one@uni.edu,course-101,member
                s2026002,Student Two,,course-101,
                S2026001,Duplicate,,,
                x,Too Short,,,
                s2026003,Bad Mail,not-an-email,,
                s2026004,No Such Course,,course-999,
                ta.smith,TA Smith,ta@uni.edu,course-101,admin
                """;
        var report = admin().contentType("text/csv")
                .body(csv)
                .post("/api/v1/users/import")
                .then()
                .statusCode(200)
                .body("created.username", equalTo(List.of("s2026001", "s2026002", "ta.smith")))
                .body("created[0].password", notNullValue())
                .body("refused.line", equalTo(List.of(4, 5, 6, 7)))
                .extract();
        assertThat(report.<String>path("refused[0].reason")).contains("twice");
        admin().get("/api/v1/accounts/course-101/members")
                .then()
                .statusCode(200)
                .body("items.username", equalTo(List.of("s2026001", "s2026002", "ta.smith")))
                .body("items.find { it.username == 'ta.smith' }.role", equalTo("admin"));
        admin().contentType("text/csv")
                .body("name,email\nx,y\n")
                .post("/api/v1/users/import")
                .then()
                .statusCode(400)
                .body("code", equalTo("InvalidCsv"));
    }

    @Test
    void catalogueEditsAreForPlatformAdmins() {
        String token = Api.user("gov.cat", PW);
        as(token).get("/api/v1/accelerator-models").then().statusCode(200).body("items.key", hasItem("ascend-910b"));
        as(token)
                .body(Map.of("restricted", true))
                .patch("/api/v1/accelerator-models/nvidia-h100-80gb")
                .then()
                .statusCode(403);
        admin().body(Map.of("restricted", true, "displayName", "NVIDIA H100 SXM 80GB"))
                .patch("/api/v1/accelerator-models/nvidia-h100-80gb")
                .then()
                .statusCode(200)
                .body("restricted", equalTo(true))
                .body("displayName", equalTo("NVIDIA H100 SXM 80GB"));
        as(token)
                .body(Map.of(
                        "kind",
                        "model-access",
                        "account",
                        "u-gov-cat",
                        "model",
                        "nvidia-h100-80gb",
                        "reason",
                        "thesis"))
                .post("/api/v1/approvals")
                .then()
                .statusCode(201)
                .body("state", equalTo("pending"));
        as(token)
                .body(Map.of(
                        "kind", "model-access", "account", "u-gov-cat", "model", "nvidia-a100-80gb", "reason", "x"))
                .post("/api/v1/approvals")
                .then()
                .statusCode(409)
                .body("code", equalTo("ModelNotRestricted"));
        admin().body(Map.of("restricted", false, "displayName", "NVIDIA H100 80GB"))
                .patch("/api/v1/accelerator-models/nvidia-h100-80gb")
                .then()
                .statusCode(200);
    }

    static final String FEATURES = "/api/v1/accounts/gov-feat/features";

    /** The annotations of every pod of a job, read from the in-process Kubernetes API once the pods exist. */
    static List<Map<String, String>> podAnnotations(String job) {
        try (var k8s =
                io.crater.kube.KubeClients.forUrl(CraterTestResource.simulator().url())) {
            return await().atMost(java.time.Duration.ofSeconds(30))
                    .until(
                            () -> k8s
                                    .pods()
                                    .inNamespace("crater-jobs")
                                    .withLabel("crater.io/job-id", job)
                                    .list()
                                    .getItems()
                                    .stream()
                                    .map(p -> p.getMetadata().getAnnotations() == null
                                            ? Map.<String, String>of()
                                            : p.getMetadata().getAnnotations())
                                    .toList(),
                            pods -> !pods.isEmpty());
        }
    }

    static long jobsIn(String account) throws Exception {
        return io.crater.Db.count(
                "SELECT count(*) FROM jobs j JOIN accounts a ON a.id = j.account_id WHERE a.slug = '" + account + "'");
    }

    @Test
    void aPlatformAdminDecidesWhatAnAccountMayUseAndCapsItsBandwidth() throws Exception {
        admin().body(Map.of("slug", "gov-feat", "name", "Feature Lab")).post("/api/v1/accounts");
        admin().body(Map.of(
                        "items",
                        List.of(
                                Map.of("resource", "cpu", "guaranteed", "8", "max", "8"),
                                Map.of("resource", "memory", "guaranteed", "32Gi", "max", "32Gi"))))
                .put("/api/v1/accounts/gov-feat/quota")
                .then()
                .statusCode(200);
        String lead = Api.user("gov.feat.lead", PW);
        String member = Api.user("gov.feat", PW);
        admin().body(Map.of("role", "admin")).put("/api/v1/accounts/gov-feat/members/gov.feat.lead");
        admin().body(Map.of("role", "member")).put("/api/v1/accounts/gov-feat/members/gov.feat");

        // Without settings everything is on and the platform's caps apply (the tests' egress default is 1G).
        as(member)
                .get(FEATURES)
                .then()
                .statusCode(200)
                .body("features.size()", equalTo(0))
                .body("ingressBandwidth", nullValue())
                .body(
                        "effective.features.keySet()",
                        hasItems("jupyter", "webide", "custom", "pytorch", "inference", "ssh", "high-priority"))
                .body("effective.features.values()", everyItem(equalTo(true)))
                .body("effective.ingressBandwidth", nullValue())
                .body("effective.egressBandwidth", equalTo("1G"));
        String early = as(member)
                .header("X-Crater-Account", "gov-feat")
                .body(cpuJob("early", "1"))
                .post("/api/v1/jobs")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        assertThat(podAnnotations(early))
                .allSatisfy(a -> assertThat(a)
                        .containsEntry("kubernetes.io/egress-bandwidth", "1G")
                        .doesNotContainKey("kubernetes.io/ingress-bandwidth"));

        // Only platform admins change them; a bad cap or an unknown feature is a 400 naming the field. None of it
        // changes anything.
        Map<String, Object> off = Map.of(
                "features", Map.of("custom", false, "high-priority", false, "jupyter", true),
                "ingressBandwidth", "100M",
                "egressBandwidth", "500M");
        for (String token : List.of(lead, member)) {
            as(token)
                    .body(off)
                    .put(FEATURES)
                    .then()
                    .statusCode(403)
                    .contentType("application/problem+json")
                    .body("code", equalTo("NotPlatformAdmin"));
        }
        admin().body(Map.of("features", Map.of("custom", false), "ingressBandwidth", "100Mbps"))
                .put(FEATURES)
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("code", equalTo("InvalidAccountFeatures"))
                .body("errors.field", equalTo(List.of("ingressBandwidth")));
        admin().body(Map.of("features", Map.of("image-build", false), "egressBandwidth", "2P"))
                .put(FEATURES)
                .then()
                .statusCode(400)
                .body("errors.field", hasItems("features.image-build", "egressBandwidth"));
        admin().get(FEATURES)
                .then()
                .body("features.size()", equalTo(0))
                .body("ingressBandwidth", nullValue())
                .body("effective.features.custom", equalTo(true));
        assertThat(io.crater.Db.count("SELECT count(*) FROM audit_log WHERE action = 'account.features'"
                        + " AND target_id = 'gov-feat'"))
                .isZero();

        admin().body(off)
                .put(FEATURES)
                .then()
                .statusCode(200)
                .body("features.custom", equalTo(false))
                .body("features.jupyter", equalTo(true))
                .body("features.webide", nullValue())
                .body("ingressBandwidth", equalTo("100M"))
                .body("effective.features.custom", equalTo(false))
                .body("effective.features.high-priority", equalTo(false))
                .body("effective.features.webide", equalTo(true))
                .body("effective.egressBandwidth", equalTo("500M"));
        as(member).get(FEATURES).then().statusCode(200).body("effective.features.custom", equalTo(false));
        admin().get("/api/v1/audit?action=account.features")
                .then()
                .statusCode(200)
                .body("items.find { it.targetId == 'gov-feat' }.after.features.custom", equalTo(false))
                .body("items.find { it.targetId == 'gov-feat' }.after.ingressBandwidth", equalTo("100M"))
                .body("items.find { it.targetId == 'gov-feat' }.before.features.size()", equalTo(0));

        // A kind that is off is refused with the reason, for a dry run too, and no job row is written.
        long jobs = jobsIn("gov-feat");
        for (String dryRun : List.of("false", "true")) {
            as(member)
                    .header("X-Crater-Account", "gov-feat")
                    .queryParam("dryRun", dryRun)
                    .body(cpuJob("refused", "1"))
                    .post("/api/v1/jobs")
                    .then()
                    .statusCode(403)
                    .contentType("application/problem+json")
                    .body("code", equalTo("FeatureDisabled"))
                    .body("detail", equalTo("'custom' is turned off in account 'gov-feat' by a platform admin"))
                    .body("reasons[0].code", equalTo("FeatureDisabled"))
                    .body("reasons[0].args.feature", equalTo("custom"))
                    .body("reasons[0].args.account", equalTo("gov-feat"));
        }
        // High priority is off even for the account's admin, who may otherwise ask for it.
        Map<String, Object> urgent = Map.of(
                "name",
                "urgent",
                "kind",
                "jupyter",
                "priority",
                "high",
                "resources",
                Map.of("cpu", "1", "memory", "2Gi"));
        as(lead).header("X-Crater-Account", "gov-feat")
                .body(urgent)
                .post("/api/v1/jobs")
                .then()
                .statusCode(403)
                .body("code", equalTo("FeatureDisabled"))
                .body("reasons[0].args.feature", equalTo("high-priority"));
        // Resubmitting goes through the same check.
        as(member)
                .body(Map.of())
                .post("/api/v1/jobs/" + early + "/resubmit")
                .then()
                .statusCode(403)
                .body("code", equalTo("FeatureDisabled"));
        assertThat(jobsIn("gov-feat")).isEqualTo(jobs);

        // A kind still on runs, and its pods carry the account's own caps.
        String notebook = as(member)
                .header("X-Crater-Account", "gov-feat")
                .body(Map.of("name", "nb", "kind", "jupyter", "resources", Map.of("cpu", "1", "memory", "2Gi")))
                .post("/api/v1/jobs")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        assertThat(podAnnotations(notebook))
                .allSatisfy(a -> assertThat(a)
                        .containsEntry("kubernetes.io/ingress-bandwidth", "100M")
                        .containsEntry("kubernetes.io/egress-bandwidth", "500M"));

        // "none" lifts even the platform's cap; a body without features turns every one back on.
        admin().body(Map.of("egressBandwidth", "none"))
                .put(FEATURES)
                .then()
                .statusCode(200)
                .body("features.size()", equalTo(0))
                .body("effective.features.custom", equalTo(true))
                .body("effective.ingressBandwidth", nullValue())
                .body("effective.egressBandwidth", nullValue());
        String uncapped = as(member)
                .header("X-Crater-Account", "gov-feat")
                .body(cpuJob("uncapped", "1"))
                .post("/api/v1/jobs")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        assertThat(podAnnotations(uncapped))
                .allSatisfy(a -> assertThat(a)
                        .doesNotContainKeys("kubernetes.io/ingress-bandwidth", "kubernetes.io/egress-bandwidth"));
        // Someone outside the account reads nothing of it.
        as(Api.user("gov.feat.out", PW)).get(FEATURES).then().statusCode(403);
    }

    static Map<String, Object> cpuJob(String name, String cpu) {
        return Map.of(
                "name",
                name,
                "kind",
                "custom",
                "image",
                "python:3.12",
                "command",
                List.of("python", "run.py"),
                "resources",
                Map.of("cpu", cpu, "memory", "8Gi"));
    }

    @Test
    void anArchivedAccountStartsNothingStopsItsJobsAndKeepsItsRows() {
        admin().body(Map.of("slug", "gov-arch", "name", "Archive Lab")).post("/api/v1/accounts");
        admin().body(Map.of(
                        "items",
                        List.of(
                                Map.of("resource", "cpu", "guaranteed", "8", "max", "8"),
                                Map.of("resource", "memory", "guaranteed", "32Gi", "max", "32Gi"))))
                .put("/api/v1/accounts/gov-arch/quota")
                .then()
                .statusCode(200);
        String member = Api.user("gov.arch", PW);
        admin().body(Map.of("role", "member"))
                .put("/api/v1/accounts/gov-arch/members/gov.arch")
                .then()
                .statusCode(200);
        String first = as(member)
                .header("X-Crater-Account", "gov-arch")
                .body(cpuJob("first", "4"))
                .post("/api/v1/jobs")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        // 4 of 8 cores are taken by the first job: 8 more must wait in the queue.
        String waiting = as(member)
                .header("X-Crater-Account", "gov-arch")
                .body(cpuJob("waiting", "8"))
                .post("/api/v1/jobs")
                .then()
                .statusCode(201)
                .extract()
                .path("id");

        // Only platform admins archive, and a refusal changes nothing.
        as(member)
                .post("/api/v1/accounts/gov-arch/archive")
                .then()
                .statusCode(403)
                .body("code", equalTo("NotPlatformAdmin"));
        admin().get("/api/v1/accounts/gov-arch").then().statusCode(200).body("archivedAt", nullValue());
        admin().post("/api/v1/accounts/u-gov-arch/archive")
                .then()
                .statusCode(409)
                .contentType("application/problem+json")
                .body("code", equalTo("PersonalAccount"));

        admin().post("/api/v1/accounts/gov-arch/archive")
                .then()
                .statusCode(200)
                .body("account.slug", equalTo("gov-arch"))
                .body("account.archivedAt", notNullValue())
                .body("jobsStopped", equalTo(2));
        as(member)
                .get("/api/v1/jobs/" + waiting)
                .then()
                .statusCode(200)
                .body("job.state", equalTo("Stopped"))
                .body("stateReason", equalTo("AccountArchived"))
                .body("stateMessage", equalTo("account 'gov-arch' was archived by admin"));
        await().atMost(java.time.Duration.ofSeconds(30))
                .untilAsserted(() -> as(member)
                        .get("/api/v1/jobs/" + first)
                        .then()
                        .statusCode(200)
                        .body("job.state", equalTo("Stopped")));

        // Nothing new starts there; the rows stay for usage and audit.
        as(member)
                .header("X-Crater-Account", "gov-arch")
                .body(cpuJob("late", "1"))
                .post("/api/v1/jobs")
                .then()
                .statusCode(409)
                .contentType("application/problem+json")
                .body("code", equalTo("AccountArchived"));
        admin().post("/api/v1/accounts/gov-arch/archive")
                .then()
                .statusCode(409)
                .body("code", equalTo("AccountArchived"));
        as(member)
                .get("/api/v1/jobs?account=gov-arch")
                .then()
                .statusCode(200)
                .body("items", hasSize(2))
                .body("items.state", everyItem(in(List.of("Stopped"))));
        as(member)
                .get("/api/v1/accounts/gov-arch/members")
                .then()
                .statusCode(200)
                .body("items.username", hasItem("gov.arch"));
        admin().get("/api/v1/audit?action=account.archive")
                .then()
                .statusCode(200)
                .body("items.find { it.targetId == 'gov-arch' }.after.jobsStopped", equalTo(2));
    }

    @Test
    void theFirstRunChecklistReadsWhatIsThere() {
        admin().body(Map.of("username", "gov.root", "password", PW, "role", "admin"))
                .post("/api/v1/users")
                .then()
                .statusCode(201);
        String root = Api.login("gov.root", PW);
        String plain = Api.user("gov.plain", PW);
        as(plain).get("/api/v1/onboarding").then().statusCode(403).body("code", equalTo("NotPlatformAdmin"));
        as(root).get("/api/v1/onboarding")
                .then()
                .statusCode(200)
                .body("steps.key", equalTo(List.of("password", "account", "people", "job")))
                .body("steps.find { it.key == 'password' }.done", equalTo(false))
                .body("complete", equalTo(false));

        as(root).body(Map.of("currentPassword", PW, "newPassword", "Changed-pass-2026"))
                .post("/api/v1/me/password")
                .then()
                .statusCode(204);
        admin().body(Map.of("slug", "gov-first", "name", "First Lab")).post("/api/v1/accounts");
        as(root).body(Map.of("items", List.of(Map.of("resource", "cpu", "guaranteed", "4", "max", "4"))))
                .put("/api/v1/accounts/gov-first/quota")
                .then()
                .statusCode(200);
        as(root).body(Map.of("role", "member"))
                .put("/api/v1/accounts/gov-first/members/gov.plain")
                .then()
                .statusCode(200);
        as(plain).body(cpuJob("hello", "1")).post("/api/v1/jobs").then().statusCode(201);
        as(root).get("/api/v1/onboarding")
                .then()
                .statusCode(200)
                .body("steps.done", everyItem(equalTo(true)))
                .body("complete", equalTo(true))
                .body("account", notNullValue());
        // A reset hands out a generated password again: the step is open until it is changed.
        String generated = admin().post("/api/v1/users/gov.root/password-reset")
                .then()
                .statusCode(200)
                .extract()
                .path("password");
        as(Api.login("gov.root", generated))
                .get("/api/v1/onboarding")
                .then()
                .statusCode(200)
                .body("steps.find { it.key == 'password' }.done", equalTo(false))
                .body("complete", equalTo(false));
    }

    @Test
    void aNewAccountNamesItsFirstAdmin() {
        String lead = Api.user("gov.lead", PW);
        admin().body(Map.of("slug", "gov-nobody", "name", "Nobody Lab", "admin", "no.such.user"))
                .post("/api/v1/accounts")
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("errors.find { it.field == 'admin' }.message", equalTo("no user 'no.such.user'"));
        admin().get("/api/v1/accounts/gov-nobody").then().statusCode(404);

        admin().body(Map.of("slug", "gov-led", "name", "Led Lab", "admin", "Gov.Lead"))
                .post("/api/v1/accounts")
                .then()
                .statusCode(201)
                .body("slug", equalTo("gov-led"));
        as(lead).get("/api/v1/accounts/gov-led").then().statusCode(200).body("myRole", equalTo("admin"));
        // As its admin, the lead adds people at once.
        Api.user("gov.led.member", PW);
        as(lead).body(Map.of("role", "member"))
                .put("/api/v1/accounts/gov-led/members/gov.led.member")
                .then()
                .statusCode(200);
        admin().get("/api/v1/audit?action=account.create")
                .then()
                .body("items.find { it.targetId == 'gov-led' }.after.admin", equalTo("gov.lead"));
    }

    @Test
    void aUserIsCreatedIntoTeamAccountsWithTheirRolesOrNotAtAll() {
        admin().body(Map.of("slug", "gov-into-a", "name", "Into A"))
                .post("/api/v1/accounts")
                .then()
                .statusCode(201);
        admin().body(Map.of("slug", "gov-into-b", "name", "Into B"))
                .post("/api/v1/accounts")
                .then()
                .statusCode(201);

        // One account that does not exist: nothing is created, not the user, not the other membership.
        admin().body(Map.of(
                        "username",
                        "gov.into",
                        "password",
                        PW,
                        "accounts",
                        List.of(
                                Map.of("account", "gov-into-a", "role", "admin"),
                                Map.of("account", "gov-nowhere", "role", "member"))))
                .post("/api/v1/users")
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body(
                        "errors.find { it.field == 'accounts[1].account' }.message",
                        equalTo("no team account 'gov-nowhere'"));
        admin().get("/api/v1/users?q=gov.into").then().statusCode(200).body("items", hasSize(0));
        admin().get("/api/v1/accounts/gov-into-a/members").then().body("items", hasSize(0));

        // A role that is not one, and an account named twice: field errors, checked before anything is written.
        admin().body(Map.of(
                        "username",
                        "gov.into",
                        "password",
                        PW,
                        "accounts",
                        List.of(
                                Map.of("account", "gov-into-a", "role", "owner"),
                                Map.of("account", "gov-into-a", "role", "member"))))
                .post("/api/v1/users")
                .then()
                .statusCode(400)
                .body("errors.find { it.field == 'accounts[0].role' }.message", equalTo("member or admin"))
                .body("errors.find { it.field == 'accounts[1].account' }.message", equalTo("named twice"));

        admin().body(Map.of(
                        "username",
                        "gov.into",
                        "password",
                        PW,
                        "accounts",
                        List.of(
                                Map.of("account", "gov-into-a", "role", "admin"),
                                Map.of("account", "gov-into-b", "role", "member"))))
                .post("/api/v1/users")
                .then()
                .statusCode(201);
        String into = Api.login("gov.into", PW);
        as(into).get("/api/v1/accounts/gov-into-a").then().statusCode(200).body("myRole", equalTo("admin"));
        as(into).get("/api/v1/accounts/gov-into-b").then().statusCode(200).body("myRole", equalTo("member"));
        as(into).get("/api/v1/me").then().body("accounts.slug", hasItems("u-gov-into", "gov-into-a", "gov-into-b"));
        admin().get("/api/v1/audit?action=member.add")
                .then()
                .body("items.find { it.targetId == 'gov-into-b/gov.into' }.after.role", equalTo("member"));
    }
}
