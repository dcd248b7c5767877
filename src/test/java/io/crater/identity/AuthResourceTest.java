package io.crater.identity;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;

import io.crater.Api;
import io.crater.CraterTestResource;
import io.crater.Db;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class AuthResourceTest {

    static Response login(String username, String password) {
        return given().contentType(ContentType.JSON)
                .body(Map.of("username", username, "password", password))
                .post("/api/v1/auth/login");
    }

    @Test
    void initialAdminSignsInAndGetsTokensAndCookies() throws Exception {
        var file = CraterTestResource.home().resolve("initial-admin.txt");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");
        String[] admin = CraterTestResource.initialAdmin();
        Response r = login(admin[0], admin[1]);
        r.then()
                .statusCode(200)
                .body("user.username", equalTo("admin"))
                .body("user.role", equalTo("admin"))
                .body("expiresIn", equalTo(900))
                .body("refreshToken", notNullValue());
        String setCookie = String.join("\n", r.headers().getValues("Set-Cookie"));
        assertThat(setCookie)
                .contains("crater_access=")
                .contains("crater_refresh=")
                .contains("HttpOnly")
                .contains("SameSite=Strict")
                .contains("Path=/api/v1/auth");
        String token = r.path("accessToken");
        assertThat(token.split("\\.")).hasSize(3);
        given().auth()
                .oauth2(token)
                .get("/api/v1/auth/me")
                .then()
                .statusCode(200)
                .body("username", equalTo("admin"));
        // The console's way: the cookie alone.
        given().cookie("crater_access", token)
                .get("/api/v1/auth/me")
                .then()
                .statusCode(200)
                .body("role", equalTo("admin"));
        // Usernames are case-insensitive.
        login("ADMIN", admin[1]).then().statusCode(200);
    }

    @Test
    void wrongPasswordIs401Problem() {
        login("admin", "not-the-password")
                .then()
                .statusCode(401)
                .contentType("application/problem+json")
                .body("status", equalTo(401))
                .body("code", equalTo("InvalidCredentials"))
                .body("type", equalTo("urn:crater:problem:InvalidCredentials"));
        login("nobody-here", "whatever").then().statusCode(401).body("code", equalTo("InvalidCredentials"));
    }

    @Test
    void burstOfWrongPasswordsIsThrottled() {
        for (int i = 0; i < 5; i++) {
            login("burst-target", "wrong-" + i).then().statusCode(401);
        }
        login("burst-target", "wrong-again")
                .then()
                .statusCode(429)
                .contentType("application/problem+json")
                .body("code", equalTo("TooManyAttempts"))
                .header("Retry-After", notNullValue());
        String retry = login("Burst-Target", "x").header("Retry-After");
        assertThat(Long.parseLong(retry)).isBetween(1L, 900L);
    }

    @Test
    void malformedAndIncompleteBodiesAre400Problems() {
        given().contentType(ContentType.JSON)
                .body("{\"username\": \"admin\", ")
                .post("/api/v1/auth/login")
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("code", equalTo("MalformedJson"));
        given().contentType(ContentType.JSON)
                .body("{\"username\": \"admin\"}")
                .post("/api/v1/auth/login")
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("code", equalTo("InvalidRequest"))
                .body("errors[0].field", equalTo("password"));
    }

    @Test
    void missingOrForgedTokenIs401Problem() {
        given().get("/api/v1/auth/me")
                .then()
                .statusCode(401)
                .contentType("application/problem+json")
                .body("code", equalTo("Unauthenticated"));
        given().auth()
                .oauth2("eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln")
                .get("/api/v1/auth/me")
                .then()
                .statusCode(401)
                .contentType("application/problem+json");
        given().get("/api/v1/cluster/accelerators").then().statusCode(401);
    }

    @Test
    void unknownApiRouteIs404ProblemNotTheConsole() {
        given().get("/api/v1/no-such-thing")
                .then()
                .statusCode(404)
                .contentType("application/problem+json")
                .body("code", equalTo("NotFound"))
                .body("instance", equalTo("/api/v1/no-such-thing"));
        given().post("/api/nothing/here").then().statusCode(404).contentType("application/problem+json");
    }

    @Test
    void refreshRotatesAndAReusedTokenRevokesItsFamily() {
        String[] admin = CraterTestResource.initialAdmin();
        String first = login(admin[0], admin[1]).path("refreshToken");
        Response rotated = given().header("Authorization", "Refresh " + first).post("/api/v1/auth/refresh");
        rotated.then().statusCode(200).body("accessToken", notNullValue());
        String second = rotated.path("refreshToken");
        assertThat(second).isNotEqualTo(first);
        // Using the replaced token again looks like theft: refused, and the newer token dies with it.
        given().header("Authorization", "Refresh " + first)
                .post("/api/v1/auth/refresh")
                .then()
                .statusCode(401)
                .body("code", equalTo("InvalidRefreshToken"));
        given().header("Authorization", "Refresh " + second)
                .post("/api/v1/auth/refresh")
                .then()
                .statusCode(401);
    }

    @Test
    void cookieMutationWithoutTheCsrfHeaderIsRefused() {
        String[] admin = CraterTestResource.initialAdmin();
        Response r = login(admin[0], admin[1]);
        String refresh = r.path("refreshToken");
        given().cookie("crater_refresh", refresh)
                .post("/api/v1/auth/refresh")
                .then()
                .statusCode(403)
                .contentType("application/problem+json")
                .body("code", equalTo("CsrfCheckFailed"));
        given().cookie("crater_refresh", refresh)
                .header("X-Requested-With", "crater")
                .header("Origin", "http://evil.example")
                .post("/api/v1/auth/refresh")
                .then()
                .statusCode(403);
        given().cookie("crater_refresh", refresh)
                .header("X-Requested-With", "crater")
                .post("/api/v1/auth/refresh")
                .then()
                .statusCode(200);
    }

    @Test
    void logoutRevokesTheRefreshToken() {
        String[] admin = CraterTestResource.initialAdmin();
        String refresh = login(admin[0], admin[1]).path("refreshToken");
        given().cookie("crater_refresh", refresh)
                .header("X-Requested-With", "crater")
                .post("/api/v1/auth/logout")
                .then()
                .statusCode(204);
        given().header("Authorization", "Refresh " + refresh)
                .post("/api/v1/auth/refresh")
                .then()
                .statusCode(401);
    }

    // Device sign-in (RFC 8628): the client starts, a signed-in person approves in the console, the client polls.

    static final String DEVICE_PW = "Device-pass-2026";

    static Response startDevice(String clientName) {
        return given().contentType(ContentType.URLENC)
                .formParam("client_name", clientName)
                .post("/api/v1/auth/device");
    }

    static Response pollDevice(String deviceCode) {
        return given().contentType(ContentType.URLENC)
                .formParam("grant_type", "urn:ietf:params:oauth:grant-type:device_code")
                .formParam("device_code", deviceCode)
                .post("/api/v1/auth/device/token");
    }

    static void assertPoll(String deviceCode, String error) {
        pollDevice(deviceCode)
                .then()
                .statusCode(400)
                .contentType("application/json")
                .header("Cache-Control", "no-store")
                .body("error", equalTo(error))
                .body("error_description", notNullValue());
    }

    @Test
    void deviceSignInHandsTheApproverOneTokenThatWorks() throws Exception {
        String approver = Api.user("dev-ann", DEVICE_PW);
        Response started = startDevice("crater CLI on dev-box");
        started.then()
                .statusCode(200)
                .header("Cache-Control", "no-store")
                .body(
                        "user_code",
                        org.hamcrest.Matchers.matchesPattern("[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}"))
                .body("verification_uri", org.hamcrest.Matchers.matchesPattern("http://[^/]+/device"))
                .body("expires_in", equalTo(600))
                .body("interval", equalTo(5));
        String deviceCode = started.path("device_code");
        String userCode = started.path("user_code");
        assertThat(deviceCode).hasSizeGreaterThanOrEqualTo(43);
        assertThat((String) started.path("verification_uri_complete"))
                .isEqualTo(started.path("verification_uri") + "?code=" + userCode);
        assertThat(Db.count("SELECT count(*) FROM device_logins WHERE device_code_hash = '"
                        + RefreshTokens.hash(deviceCode) + "' AND user_code_hash = '"
                        + RefreshTokens.hash(userCode.replace("-", "")) + "'"))
                .as("both codes are kept as hashes only")
                .isEqualTo(1);

        assertPoll(deviceCode, "authorization_pending");
        assertPoll(deviceCode, "slow_down");
        assertThat(Db.count("SELECT interval_seconds FROM device_logins WHERE device_code_hash = '"
                        + RefreshTokens.hash(deviceCode) + "'"))
                .as("the interval grows by 5 s after a slow_down")
                .isEqualTo(10);

        // The console's way: the session cookie, and the CSRF header on the mutation.
        String typed = userCode.toLowerCase().replace("-", "");
        Response shown = given().cookie("crater_access", approver).get("/api/v1/auth/device/" + typed);
        shown.then()
                .statusCode(200)
                .body("userCode", equalTo(userCode))
                .body("clientName", equalTo("crater CLI on dev-box"))
                .body("clientAddress", equalTo("127.0.0.1"))
                .body("createdAt", notNullValue())
                .body("expiresAt", notNullValue())
                .body("$", not(hasKey("deviceCode")));
        assertThat(shown.asString()).doesNotContain(deviceCode);
        given().cookie("crater_access", approver)
                .post("/api/v1/auth/device/" + userCode + "/approve")
                .then()
                .statusCode(403)
                .body("code", equalTo("CsrfCheckFailed"));
        given().cookie("crater_access", approver)
                .header("X-Requested-With", "crater")
                .post("/api/v1/auth/device/" + userCode + "/approve")
                .then()
                .statusCode(204);

        // Approved: the next poll gets the token at once (JSON works as well as a form), and only once.
        Response issued = given().contentType(ContentType.JSON)
                .body(Map.of("grant_type", "urn:ietf:params:oauth:grant-type:device_code", "device_code", deviceCode))
                .post("/api/v1/auth/device/token");
        issued.then()
                .statusCode(200)
                .header("Cache-Control", "no-store")
                .body("token_type", equalTo("Bearer"))
                .body("username", equalTo("dev-ann"));
        String token = issued.path("access_token");
        assertThat(token).startsWith("crt_");
        assertPoll(deviceCode, "invalid_grant");
        Api.as(token).get("/api/v1/me").then().statusCode(200).body("username", equalTo("dev-ann"));
        Api.as(approver)
                .get("/api/v1/me/tokens")
                .then()
                .statusCode(200)
                .body("items.find { it.id == " + issued.path("token_id") + " }.name", equalTo("crater CLI on dev-box"));
        assertThat(Db.count("SELECT count(*) FROM audit_log WHERE actor = 'dev-ann' AND action = 'device.approve'"
                        + " AND after->>'client' = 'crater CLI on dev-box'"))
                .isEqualTo(1);
        assertThat(Db.count("SELECT count(*) FROM audit_log WHERE actor = 'dev-ann' AND action = 'token.create'"
                        + " AND target_id = '" + token.substring(0, 12) + "'"))
                .isEqualTo(1);
        given().cookie("crater_access", approver)
                .header("X-Requested-With", "crater")
                .post("/api/v1/auth/device/" + userCode + "/approve")
                .then()
                .statusCode(404)
                .contentType("application/problem+json");
    }

    @Test
    void theTokenBelongsToWhoeverApprovesAndIsRevocableByThem() {
        String ann = Api.user("dev-ann", DEVICE_PW);
        String bob = Api.user("dev-bob", DEVICE_PW);
        Response started = startDevice("bob's laptop");
        String userCode = started.path("user_code");
        Api.as(bob).post("/api/v1/auth/device/" + userCode + "/approve").then().statusCode(204);
        Response issued = pollDevice(started.path("device_code"));
        issued.then().statusCode(200).body("username", equalTo("dev-bob"));
        String token = issued.path("access_token");
        int id = issued.path("token_id");
        Api.as(token).get("/api/v1/me").then().body("username", equalTo("dev-bob"));
        Api.as(ann).get("/api/v1/me/tokens").then().body("items.id", not(org.hamcrest.Matchers.hasItem(id)));
        Api.as(ann).delete("/api/v1/me/tokens/" + id).then().statusCode(404);
        Api.as(bob).delete("/api/v1/me/tokens/" + id).then().statusCode(204);
        Api.as(token).get("/api/v1/me").then().statusCode(401);
    }

    @Test
    void aDeniedDeviceSignInIsAccessDenied() {
        String ann = Api.user("dev-ann", DEVICE_PW);
        Response started = startDevice("not mine");
        String userCode = started.path("user_code");
        Api.as(ann).post("/api/v1/auth/device/" + userCode + "/deny").then().statusCode(204);
        assertPoll(started.path("device_code"), "access_denied");
        Api.as(ann).get("/api/v1/auth/device/" + userCode).then().statusCode(404);
        Api.as(ann).post("/api/v1/auth/device/" + userCode + "/approve").then().statusCode(404);
        assertPoll(started.path("device_code"), "access_denied");
    }

    @Test
    void anExpiredDeviceCodeIsExpiredToken() throws Exception {
        String ann = Api.user("dev-ann", DEVICE_PW);
        Response started = startDevice("too slow");
        String deviceCode = started.path("device_code");
        String userCode = started.path("user_code");
        try (var c = Db.connection();
                var s = c.prepareStatement(
                        "UPDATE device_logins SET expires_at = now() - interval '1 second' WHERE device_code_hash = ?")) {
            s.setString(1, RefreshTokens.hash(deviceCode));
            assertThat(s.executeUpdate()).isEqualTo(1);
        }
        assertPoll(deviceCode, "expired_token");
        Api.as(ann)
                .get("/api/v1/auth/device/" + userCode)
                .then()
                .statusCode(404)
                .contentType("application/problem+json")
                .body("code", equalTo("NotFound"));
        Api.as(ann).post("/api/v1/auth/device/" + userCode + "/approve").then().statusCode(404);
        assertPoll(deviceCode, "expired_token");
    }

    @Test
    void deviceEndpointsRefuseBadInputAndStrangers() throws Exception {
        Response started = startDevice("someone's");
        String userCode = started.path("user_code");
        given().get("/api/v1/auth/device/" + userCode).then().statusCode(401).contentType("application/problem+json");
        given().post("/api/v1/auth/device/" + userCode + "/approve").then().statusCode(401);
        assertPoll(started.path("device_code"), "authorization_pending");
        assertThat(Db.count("SELECT count(*) FROM device_logins WHERE state = 'pending' AND user_code_hash = '"
                        + RefreshTokens.hash(userCode.replace("-", "")) + "'"))
                .isEqualTo(1);

        startDevice("two\nlines").then().statusCode(400).body("code", equalTo("InvalidRequest"));
        given().contentType(ContentType.URLENC)
                .formParam("client_name", "x".repeat(101))
                .post("/api/v1/auth/device")
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("errors[0].field", equalTo("client_name"));
        given().post("/api/v1/auth/device").then().statusCode(200).body("user_code", notNullValue());
        assertPoll("no-such-device-code", "invalid_grant");
        given().contentType(ContentType.URLENC)
                .formParam("device_code", "x")
                .post("/api/v1/auth/device/token")
                .then()
                .statusCode(400)
                .body("error", equalTo("invalid_request"));
        given().contentType(ContentType.URLENC)
                .formParam("grant_type", "password")
                .formParam("device_code", "x")
                .post("/api/v1/auth/device/token")
                .then()
                .statusCode(400)
                .body("error", equalTo("unsupported_grant_type"));
    }

    @Test
    void unknownUserCodesAre404AndTooManyMissesWait() {
        String cat = Api.user("dev-cat", DEVICE_PW);
        Api.as(cat)
                .get("/api/v1/auth/device/ZZZZ-ZZZZ")
                .then()
                .statusCode(404)
                .contentType("application/problem+json")
                .body("code", equalTo("NotFound"));
        Api.as(cat).get("/api/v1/auth/device/not-a-code").then().statusCode(404);
        for (int i = 0; i < 8; i++) {
            Api.as(cat)
                    .post("/api/v1/auth/device/ZZZZ-ZZZ" + "BCDFGHJK".charAt(i) + "/deny")
                    .then()
                    .statusCode(404);
        }
        // Ten misses in the window: even a right code waits now, so codes cannot be guessed.
        String userCode = startDevice("guessed").path("user_code");
        Api.as(cat)
                .get("/api/v1/auth/device/" + userCode)
                .then()
                .statusCode(429)
                .contentType("application/problem+json")
                .body("code", equalTo("TooManyAttempts"))
                .header("Retry-After", notNullValue());
        Api.as(cat).post("/api/v1/auth/device/" + userCode + "/approve").then().statusCode(429);
        // Another person is not held back by cat's misses.
        Api.as(Api.user("dev-ann", DEVICE_PW))
                .get("/api/v1/auth/device/" + userCode)
                .then()
                .statusCode(200);
    }
}
