package io.crater.mcp;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;

import io.crater.Api;
import io.crater.CraterTestResource;
import io.crater.TestAuth;
import io.crater.job.Flows;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** The MCP endpoint driven as a client would: the protocol, its refusals, and every tool against the API's answers. */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class McpEndpointTest {

    static final String PW = "Mcp-pass-2026";
    static final AtomicInteger IDS = new AtomicInteger();

    static String ana;
    static String ben;
    static String anaFails;
    static String anaWaits;
    static String benRuns;

    /** Two accounts, one member each; a job of Ana's that fails, one that waits, and a long one of Ben's. */
    static synchronized void people() {
        if (ana != null) {
            return;
        }
        ana = Api.user("mcp.ana", PW);
        ben = Api.user("mcp.ben", PW);
        List<Map<String, String>> quota = List.of(Flows.line("cpu", "4", "4"), Flows.line("memory", "16Gi", "16Gi"));
        Flows.account("mcp-a", quota, "mcp.ana");
        Flows.account("mcp-b", quota, "mcp.ben");
        anaFails = Flows.submit(ana, "mcp-a", job("fails", Map.of("SIM_DURATION", "1s", "SIM_EXIT_CODE", "3"), 0));
        anaWaits = Flows.submit(ana, "mcp-a", job("waits", Map.of(), 1));
        benRuns = Flows.submit(ben, "mcp-b", job("runs", Map.of("SIM_DURATION", "600s"), 0));
    }

    static Map<String, Object> job(String name, Map<String, String> env, int gpus) {
        Map<String, Object> resources = gpus == 0
                ? Map.of("cpu", "1", "memory", "1Gi")
                : Map.of("cpu", "1", "memory", "1Gi", "acceleratorModel", "nvidia-a100-80gb", "accelerators", gpus);
        return Map.of(
                "name",
                name,
                "kind",
                "custom",
                "image",
                "busybox",
                "command",
                List.of("run"),
                "env",
                env,
                "resources",
                resources);
    }

    // --- the client side of the protocol -------------------------------------------------------------------

    static RequestSpecification mcp(String token, String session) {
        RequestSpecification r = given().contentType(ContentType.JSON).accept("application/json, text/event-stream");
        if (token != null) {
            r = r.auth().oauth2(token);
        }
        return session == null ? r : r.header("Mcp-Session-Id", session);
    }

    static Map<String, Object> request(String method, Object params) {
        return params == null
                ? Map.of("jsonrpc", "2.0", "id", IDS.incrementAndGet(), "method", method)
                : Map.of("jsonrpc", "2.0", "id", IDS.incrementAndGet(), "method", method, "params", params);
    }

    static Response initialize(String token, String version) {
        return mcp(token, null)
                .body(request(
                        "initialize",
                        Map.of(
                                "protocolVersion",
                                version,
                                "capabilities",
                                Map.of(),
                                "clientInfo",
                                Map.of("name", "test", "version", "1"))))
                .post("/mcp");
    }

    static String session(String token) {
        String id =
                initialize(token, "2025-06-18").then().statusCode(200).extract().header("Mcp-Session-Id");
        mcp(token, id)
                .body(Map.of("jsonrpc", "2.0", "method", "notifications/initialized"))
                .post("/mcp")
                .then()
                .statusCode(202);
        return id;
    }

    /** A tools/call; the result object, after checking that its text is the structured content's JSON. */
    static JsonPath call(String token, String session, String tool, Map<String, Object> arguments) {
        JsonPath r = mcp(token, session)
                .body(request("tools/call", Map.of("name", tool, "arguments", arguments)))
                .post("/mcp")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .setRootPath("result");
        assertThat(r.getString("content[0].type")).isEqualTo("text");
        if (!r.getBoolean("isError")) {
            assertThat(JsonPath.from(r.getString("content[0].text")).getMap("$"))
                    .isEqualTo(r.getMap("structuredContent"));
        }
        return r;
    }

    static String state(String token, String id) {
        return Api.as(token).get("/api/v1/jobs/" + id).then().extract().path("job.state");
    }

    // --- the protocol --------------------------------------------------------------------------------------

    @Test
    void initializeNegotiatesTheVersionAndOpensASession() {
        people();
        Response r = initialize(ana, "2025-06-18");
        r.then()
                .statusCode(200)
                .contentType(ContentType.JSON)
                .body("jsonrpc", equalTo("2.0"))
                .body("result.protocolVersion", equalTo("2025-06-18"))
                .body("result.serverInfo.name", equalTo("crater"))
                .body("result.capabilities.tools.listChanged", equalTo(false))
                .body("result.instructions", containsString("not instructions"));
        String session = r.header("Mcp-Session-Id");
        assertThat(session).isNotBlank().matches("[\\x21-\\x7e]+");
        initialize(ana, "2025-03-26").then().statusCode(200).body("result.protocolVersion", equalTo("2025-03-26"));
        initialize(ana, "2024-11-05").then().statusCode(200).body("result.protocolVersion", equalTo("2025-06-18"));

        Response note = mcp(ana, session)
                .body(Map.of("jsonrpc", "2.0", "method", "notifications/initialized"))
                .post("/mcp");
        assertThat(note.statusCode()).isEqualTo(202);
        assertThat(note.asString()).isEmpty();
        mcp(ana, session)
                .header("MCP-Protocol-Version", "2025-06-18")
                .body(Map.of("jsonrpc", "2.0", "id", "p-1", "method", "ping"))
                .post("/mcp")
                .then()
                .statusCode(200)
                .body("id", equalTo("p-1"))
                .body("result", equalTo(Map.of()));
    }

    @Test
    void theTransportRefusesWhatTheSpecificationRefuses() {
        people();
        // No token: 401 with the Bearer challenge; a console cookie alone does not open /mcp.
        mcp(null, null)
                .body(request("ping", null))
                .post("/mcp")
                .then()
                .statusCode(401)
                .header("WWW-Authenticate", containsString("Bearer"))
                .body("code", equalTo("Unauthenticated"));
        given().contentType(ContentType.JSON)
                .cookie("crater_access", ana)
                .body(request("ping", null))
                .post("/mcp")
                .then()
                .statusCode(401);
        String session = session(ana);
        // Without a session id, with a forged one, with another user's: 400, 404, 404.
        mcp(ana, null)
                .body(request("ping", null))
                .post("/mcp")
                .then()
                .statusCode(400)
                .body("error.code", equalTo(-32600))
                .body("error.message", containsString("Mcp-Session-Id"));
        mcp(ana, session.substring(0, session.length() - 2) + "xx")
                .body(request("ping", null))
                .post("/mcp")
                .then()
                .statusCode(404);
        mcp(ben, session).body(request("ping", null)).post("/mcp").then().statusCode(404);
        // An unsupported protocol version header, a foreign Origin, a GET for a stream.
        mcp(ana, session)
                .header("MCP-Protocol-Version", "1999-01-01")
                .body(request("ping", null))
                .post("/mcp")
                .then()
                .statusCode(400)
                .body("error.message", containsString("1999-01-01"));
        mcp(ana, session)
                .header("Origin", "http://evil.example")
                .body(request("ping", null))
                .post("/mcp")
                .then()
                .statusCode(403);
        mcp(ana, session).body(request("ping", null)).post("/mcp").then().statusCode(200);
        mcp(ana, session)
                .get("/mcp")
                .then()
                .statusCode(405)
                .header("Allow", containsString("POST"))
                .body("code", equalTo("MethodNotAllowed"));
        // Ending the session: it is refused from then on, and cannot be ended twice.
        mcp(ana, session).delete("/mcp").then().statusCode(204);
        mcp(ana, session).body(request("ping", null)).post("/mcp").then().statusCode(404);
        mcp(ana, session).delete("/mcp").then().statusCode(404);
        mcp(ana, null).delete("/mcp").then().statusCode(400).body("errors[0].field", equalTo("Mcp-Session-Id"));
    }

    @Test
    void jsonRpcErrorsUseTheStandardCodes() {
        people();
        String session = session(ana);
        mcp(ana, session)
                .body("{\"jsonrpc\":")
                .post("/mcp")
                .then()
                .statusCode(400)
                .body("error.code", equalTo(-32700));
        mcp(ana, session)
                .body(Map.of("id", 1, "method", "ping"))
                .post("/mcp")
                .then()
                .statusCode(400)
                .body("error.code", equalTo(-32600));
        mcp(ana, session)
                .body(request("resources/list", Map.of()))
                .post("/mcp")
                .then()
                .statusCode(200)
                .body("error.code", equalTo(-32601))
                .body("error.message", containsString("resources/list"));
        mcp(ana, session)
                .body(request("tools/call", Map.of("name", "no_such_tool", "arguments", Map.of())))
                .post("/mcp")
                .then()
                .body("error.code", equalTo(-32602))
                .body("error.message", containsString("no_such_tool"));
        mcp(ana, session)
                .body(request(
                        "tools/call", Map.of("name", "list_jobs", "arguments", Map.of("limit", "ten", "colour", 1))))
                .post("/mcp")
                .then()
                .body("error.code", equalTo(-32602))
                .body("error.data.errors", hasItem("argument 'limit' must be an integer"))
                .body("error.data.errors", hasItem("unknown argument 'colour'"));
        mcp(ana, session)
                .body(request("tools/call", Map.of("name", "get_job", "arguments", Map.of())))
                .post("/mcp")
                .then()
                .body("error.code", equalTo(-32602))
                .body("error.data.errors", hasItem("argument 'id' is required"));
        // A batch belongs to 2025-03-26 sessions only.
        String old = initialize(ana, "2025-03-26").then().extract().header("Mcp-Session-Id");
        List<Map<String, Object>> batch = List.of(request("ping", null), request("ping", null));
        mcp(ana, old).body(batch).post("/mcp").then().statusCode(200).body("size()", equalTo(2));
        mcp(ana, session).body(batch).post("/mcp").then().statusCode(400).body("error.code", equalTo(-32600));
    }

    @Test
    void aMemberSeesNoAdminToolsAndCannotUseThem() {
        people();
        String session = session(ana);
        List<String> names = mcp(ana, session)
                .body(request("tools/list", Map.of()))
                .post("/mcp")
                .then()
                .statusCode(200)
                .extract()
                .path("result.tools.name");
        assertThat(names)
                .containsExactlyInAnyOrder(
                        "list_jobs",
                        "get_job",
                        "why_is_job_waiting",
                        "tail_job_log",
                        "explain_job_failure",
                        "my_quota_and_usage",
                        "free_accelerators",
                        "submit_job",
                        "stop_job");
        JsonPath tools = mcp(ana, session)
                .body(request("tools/list", Map.of()))
                .post("/mcp")
                .jsonPath()
                .setRootPath("result.tools");
        assertThat(tools.getList("inputSchema.type")).containsOnly("object");
        assertThat(tools.getList("outputSchema.type")).containsOnly("object");
        assertThat(tools.getBoolean("find { it.name == 'stop_job' }.annotations.destructiveHint"))
                .isTrue();
        assertThat(tools.getBoolean("find { it.name == 'submit_job' }.annotations.readOnlyHint"))
                .isFalse();
        assertThat(tools.getBoolean("find { it.name == 'get_job' }.annotations.readOnlyHint"))
                .isTrue();
        assertThat(tools.getBoolean("find { it.name == 'submit_job' }.inputSchema.properties.dryRun.default"))
                .isTrue();

        JsonPath refused = call(ana, session, "cluster_nodes", Map.of());
        assertThat(refused.getBoolean("isError")).isTrue();
        assertThat(refused.getInt("structuredContent.problem.status")).isEqualTo(403);
        assertThat(refused.getString("structuredContent.problem.code")).isEqualTo("NotPlatformAdmin");
        assertThat(refused.getString("content[0].text")).startsWith("Error 403 NotPlatformAdmin");

        String admin = session(TestAuth.adminToken());
        List<String> adminNames = mcp(TestAuth.adminToken(), admin)
                .body(request("tools/list", Map.of()))
                .post("/mcp")
                .then()
                .extract()
                .path("result.tools.name");
        assertThat(adminNames).contains("cluster_nodes", "list_all_jobs").hasSize(11);
        JsonPath nodes = call(TestAuth.adminToken(), admin, "cluster_nodes", Map.of());
        assertThat(nodes.getList("structuredContent.items.name"))
                .containsExactlyInAnyOrderElementsOf(Api.admin()
                        .get("/api/v1/cluster/nodes")
                        .then()
                        .extract()
                        .<List<String>>path("items.name"));
        JsonPath all = call(TestAuth.adminToken(), admin, "list_all_jobs", Map.of("limit", 200));
        assertThat(all.getList("structuredContent.items.id")).contains(anaWaits, benRuns);
    }

    @Test
    void everyToolAnswersWhatTheApiAnswers() {
        people();
        String s = session(ana);
        JsonPath mine = call(ana, s, "list_jobs", Map.of("account", "mcp-a", "mine", true));
        assertThat(mine.getBoolean("isError")).isFalse();
        assertThat(mine.getList("structuredContent.items.id"))
                .contains(anaFails, anaWaits)
                .doesNotContain(benRuns);
        assertThat(call(ana, s, "list_jobs", Map.of("kind", "jupyter")).getList("structuredContent.items"))
                .isEmpty();
        assertThat(call(ana, s, "get_job", Map.of("id", anaWaits)).getString("structuredContent.job.name"))
                .isEqualTo("waits");

        // The waiting job: the account has no A100 quota, so it waits with the numbers.
        JsonPath wait = call(ana, s, "why_is_job_waiting", Map.of("id", anaWaits));
        Map<String, Object> api = Api.as(ana)
                .get("/api/v1/jobs/" + anaWaits + "/wait")
                .then()
                .extract()
                .path("$");
        assertThat(wait.getString("structuredContent.reasons[0].code")).isEqualTo("AccountQuotaExceeded");
        assertThat(wait.getInt("structuredContent.reasons[0].numbers.requested"))
                .isEqualTo(1000);
        assertThat(wait.getMap("structuredContent.reasons[0]")).isEqualTo(((List<?>) api.get("reasons")).get(0));
        assertThat(wait.getString("content[0].text")).contains("\"AccountQuotaExceeded\"");

        // The failed job: its exit code, its log's end, through two tools.
        Awaitility.await().atMost(Duration.ofSeconds(40)).until(() -> "Failed".equals(state(ana, anaFails)));
        JsonPath failure = call(ana, s, "explain_job_failure", Map.of("id", anaFails, "lines", 5));
        assertThat(failure.getString("structuredContent.state")).isEqualTo("Failed");
        assertThat(failure.getList("structuredContent.exits.exitCode")).contains(3);
        assertThat(failure.getList("structuredContent.logTail", String.class))
                .contains("process exited with code 3")
                .hasSizeLessThanOrEqualTo(5);
        JsonPath tail = call(ana, s, "tail_job_log", Map.of("id", anaFails, "lines", 1));
        assertThat(tail.getList("structuredContent.lines")).containsExactly("process exited with code 3");

        JsonPath quota = call(ana, s, "my_quota_and_usage", Map.of("account", "mcp-a"));
        assertThat(quota.getString("structuredContent.account")).isEqualTo("mcp-a");
        assertThat(quota.getString("structuredContent.role")).isEqualTo("member");
        assertThat(quota.getString("structuredContent.quota.find { it.resource == 'cpu' }.max"))
                .isEqualTo("4");
        assertThat(quota.getMap("structuredContent.defaultLimits")).containsKey("resources");

        JsonPath free = call(ana, s, "free_accelerators", Map.of("model", "nvidia-a100-80gb"));
        Map<String, Object> a100 = Api.as(ana)
                .get("/api/v1/cluster/accelerators")
                .then()
                .extract()
                .path("items.find { it.model == 'nvidia-a100-80gb' }");
        assertThat(free.getList("structuredContent.items")).hasSize(1);
        assertThat(free.getInt("structuredContent.items[0].total")).isEqualTo(a100.get("total"));
        assertThat(free.getInt("structuredContent.items[0].nodes")).isEqualTo(a100.get("nodes"));
    }

    @Test
    void submittingIsADryRunUnlessSaidOtherwiseAndStoppingStops() {
        people();
        String s = session(ana);
        int before =
                Api.as(ana).get("/api/v1/jobs?account=mcp-a").then().extract().path("items.size()");
        Map<String, Object> spec = job("mcp-made", Map.of("SIM_DURATION", "600s"), 0);
        JsonPath dry = call(ana, s, "submit_job", Map.of("job", spec, "account", "mcp-a"));
        assertThat(dry.getBoolean("structuredContent.dryRun")).isTrue();
        assertThat(dry.getString("structuredContent.decision")).isEqualTo("ADMIT");
        assertThat(dry.getString("structuredContent.manifests")).contains("crater-mcp-a");
        assertThat(Api.as(ana)
                        .get("/api/v1/jobs?account=mcp-a")
                        .then()
                        .extract()
                        .<Integer>path("items.size()"))
                .isEqualTo(before);

        JsonPath bad = call(ana, s, "submit_job", Map.of("job", Map.of("kind", "custom"), "account", "mcp-a"));
        assertThat(bad.getBoolean("isError")).isTrue();
        assertThat(bad.getInt("structuredContent.problem.status")).isEqualTo(400);
        assertThat(bad.getList("structuredContent.problem.errors.field")).isNotEmpty();

        JsonPath real = call(ana, s, "submit_job", Map.of("job", spec, "account", "mcp-a", "dryRun", false));
        assertThat(real.getBoolean("structuredContent.dryRun")).isFalse();
        String id = real.getString("structuredContent.job.id");
        assertThat(Api.as(ana).get("/api/v1/jobs/" + id).then().extract().<String>path("job.name"))
                .isEqualTo("mcp-made");

        JsonPath stopped = call(ana, s, "stop_job", Map.of("id", id));
        assertThat(stopped.getBoolean("isError")).isFalse();
        assertThat(stopped.getString("structuredContent.id")).isEqualTo(id);
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> "Stopped".equals(state(ana, id)));
    }

    @Test
    void aMemberReachesAnotherAccountsJobNoMoreThanThroughTheApi() {
        people();
        String s = session(ana);
        Map<String, String> apiPaths = Map.of(
                "get_job", "GET /api/v1/jobs/" + benRuns,
                "why_is_job_waiting", "GET /api/v1/jobs/" + benRuns + "/wait",
                "tail_job_log", "GET /api/v1/jobs/" + benRuns + "/logs",
                "explain_job_failure", "GET /api/v1/jobs/" + benRuns,
                "stop_job", "POST /api/v1/jobs/" + benRuns + "/stop");
        apiPaths.forEach((tool, call) -> {
            String[] mp = call.split(" ");
            Response api = Api.as(ana).request(mp[0], mp[1]);
            assertThat(api.statusCode()).as(call).isIn(403, 404);
            JsonPath r = call(ana, s, tool, Map.of("id", benRuns));
            assertThat(r.getBoolean("isError")).as(tool).isTrue();
            assertThat(r.getInt("structuredContent.problem.status")).as(tool).isEqualTo(api.statusCode());
            assertThat(r.getString("structuredContent.problem.code"))
                    .as(tool)
                    .isEqualTo(api.jsonPath().getString("code"));
        });
        assertThat(state(ben, benRuns)).isNotIn("Stopping", "Stopped");

        JsonPath submit = call(ana, s, "submit_job", Map.of("job", job("x", Map.of(), 0), "account", "mcp-b"));
        assertThat(submit.getString("structuredContent.problem.code")).isEqualTo("NotAMember");
        JsonPath quota = call(ana, s, "my_quota_and_usage", Map.of("account", "mcp-b"));
        Response api = Api.as(ana).get("/api/v1/accounts/mcp-b");
        assertThat(quota.getInt("structuredContent.problem.status")).isEqualTo(api.statusCode());
        JsonPath list = call(ana, s, "list_jobs", Map.of("account", "mcp-b"));
        assertThat(list.getString("structuredContent.problem.code")).isEqualTo("NotAMember");
        Api.admin()
                .get("/api/v1/audit/denied")
                .then()
                .body("items.path", hasItem("/mcp tools/call stop_job"))
                .body("items.path", not(hasItem("/mcp tools/call free_accelerators")));
    }

    @TestHTTPResource("/")
    URL base;

    /** The official TypeScript SDK's client (e2e/mcp.mjs) against this server, as a member with a personal token. */
    @Test
    void theOfficialClientWorksWithTheEndpoint() throws Exception {
        people();
        Path webui = Path.of("src/main/webui");
        assertThat(webui.resolve("node_modules/@modelcontextprotocol/sdk/package.json"))
                .as("the console's node_modules with @modelcontextprotocol/sdk: run `npm ci` in src/main/webui first")
                .exists();
        String token = Api.as(ana)
                .body(Map.of("name", "mcp-client"))
                .post("/api/v1/me/tokens")
                .then()
                .statusCode(201)
                .extract()
                .path("token");
        Awaitility.await().atMost(Duration.ofSeconds(40)).until(() -> "Failed".equals(state(ana, anaFails)));
        Path out = Files.createTempFile("mcp-client", ".log");
        ProcessBuilder pb = new ProcessBuilder("node", "e2e/mcp.mjs")
                .directory(webui.toFile())
                .redirectErrorStream(true)
                .redirectOutput(out.toFile());
        pb.environment().put("CRATER_URL", base.toString());
        pb.environment().put("CRATER_TOKEN", token);
        pb.environment().put("CRATER_ACCOUNT", "mcp-a");
        pb.environment().put("CRATER_WAITING_JOB", anaWaits);
        pb.environment().put("CRATER_FAILED_JOB", anaFails);
        pb.environment().put("CRATER_OTHER_JOB", benRuns);
        Process node = pb.start();
        boolean ended = node.waitFor(120, TimeUnit.SECONDS);
        if (!ended) {
            node.destroyForcibly();
        }
        String log = Files.readString(out);
        assertThat(ended).as("the MCP client ended; its output:\n" + log).isTrue();
        assertThat(node.exitValue())
                .as("the MCP client's exit code; its output:\n" + log)
                .isZero();
        assertThat(log).contains("[mcp] all checks passed");
        assertThat(state(ben, benRuns)).isNotIn("Stopping", "Stopped");
    }
}
