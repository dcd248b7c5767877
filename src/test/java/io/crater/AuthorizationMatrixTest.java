package io.crater;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/**
 * Every endpoint and stream topic called as anonymous, a user of another account, a member, an account admin
 * and a platform admin, with the status each must get. A refused call (401/403) must change nothing in the
 * database. The test fails when the API has an endpoint this table does not list.
 */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class AuthorizationMatrixTest {

    static final String PW = "Matrix-pass-2026";
    static final String[] ROLES = {"anonymous", "outsider", "member", "accountAdmin", "platformAdmin"};

    /** One row: method, the OpenAPI path template, the concrete path, a body, and the status per role. */
    record Call(String method, String template, String path, Object body, int... expected) {}

    static final Map<String, String> tokens = new java.util.HashMap<>();
    static int grantToApprove;
    static int grantToReject;
    static int grantToCancel;
    static String jobToRead;
    static String jobToStop;
    static String templateToEdit;

    /** A small valid template: a batch job with one parameter. */
    static Map<String, Object> template(String name) {
        return Map.of(
                "name",
                name,
                "description",
                "matrix",
                "visibility",
                "private",
                "parameters",
                List.of(Map.of(
                        "name", "msg", "label", "Message", "type", "string", "default", "hi", "required", false)),
                "spec",
                Map.of("kind", "custom", "name", "echo", "image", "busybox", "command", List.of("echo", "${msg}")));
    }

    @TestHTTPResource("/")
    URL base;

    static synchronized void people() {
        if (!tokens.isEmpty()) {
            return;
        }
        tokens.put("platformAdmin", TestAuth.adminToken());
        tokens.put("accountAdmin", Api.user("mx.lead", PW));
        tokens.put("member", Api.user("mx.member", PW));
        tokens.put("outsider", Api.user("mx.out", PW));
        Api.user("mx.victim", PW);
        Api.admin().body(Map.of("slug", "mx-lab", "name", "Matrix Lab")).post("/api/v1/accounts");
        Api.admin()
                .body(Map.of("items", List.of(Map.of("resource", "nvidia-a100-80gb", "guaranteed", "4", "max", "8"))))
                .put("/api/v1/accounts/mx-lab/quota")
                .then()
                .statusCode(200);
        Api.admin()
                .body(Map.of("role", "admin"))
                .put("/api/v1/accounts/mx-lab/members/mx.lead")
                .then()
                .statusCode(200);
        Api.admin()
                .body(Map.of("role", "member"))
                .put("/api/v1/accounts/mx-lab/members/mx.member")
                .then()
                .statusCode(200);
        grantToApprove = grant();
        grantToReject = grant();
        grantToCancel = grant();
        jobToRead = job();
        jobToStop = job();
        templateToEdit = Api.as(tokens.get("member"))
                .body(template("mine"))
                .post("/api/v1/templates")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
    }

    /** A job of the member in mx-lab; it waits (the account has no cpu quota), which is all the matrix needs. */
    static String job() {
        return Api.as(tokens.get("member"))
                .header("X-Crater-Account", "mx-lab")
                .body(Map.of("name", "matrix", "kind", "custom", "image", "busybox", "command", List.of("true")))
                .post("/api/v1/jobs")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
    }

    static int grant() {
        return Api.as(tokens.get("member"))
                .body(Map.of(
                        "kind",
                        "quota-grant",
                        "account",
                        "mx-lab",
                        "resource",
                        "nvidia-a100-80gb",
                        "amount",
                        "1",
                        "until",
                        Instant.now().plusSeconds(86_400).toString(),
                        "reason",
                        "matrix"))
                .post("/api/v1/approvals")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
    }

    static List<Call> calls() {
        String acc = "/api/v1/accounts/mx-lab";
        Map<String, Object> grantBody = Map.of(
                "kind",
                "quota-grant",
                "account",
                "mx-lab",
                "resource",
                "nvidia-a100-80gb",
                "amount",
                "1",
                "until",
                Instant.now().plusSeconds(3600).toString(),
                "reason",
                "matrix");
        return List.of(
                new Call(
                        "POST",
                        "/api/v1/auth/login",
                        "/api/v1/auth/login",
                        Map.of("username", "nobody-mx", "password", "x"),
                        401,
                        401,
                        401,
                        401,
                        401),
                new Call(
                        "POST",
                        "/api/v1/auth/signup",
                        "/api/v1/auth/signup",
                        Map.of("username", "mx.new", "password", PW),
                        403,
                        403,
                        403,
                        403,
                        403),
                new Call("POST", "/api/v1/auth/refresh", "/api/v1/auth/refresh", null, 401, 401, 401, 401, 401),
                new Call("POST", "/api/v1/auth/logout", "/api/v1/auth/logout", null, 204, 204, 204, 204, 204),
                new Call("GET", "/api/v1/auth/me", "/api/v1/auth/me", null, 401, 200, 200, 200, 200),
                new Call(
                        "GET",
                        "/api/v1/auth/oidc/providers",
                        "/api/v1/auth/oidc/providers",
                        null,
                        200,
                        200,
                        200,
                        200,
                        200),
                new Call(
                        "GET",
                        "/api/v1/auth/oidc/{provider}/start",
                        "/api/v1/auth/oidc/nope/start",
                        null,
                        404,
                        404,
                        404,
                        404,
                        404),
                new Call(
                        "GET",
                        "/api/v1/auth/oidc/{provider}/callback",
                        "/api/v1/auth/oidc/nope/callback?state=s",
                        null,
                        404,
                        404,
                        404,
                        404,
                        404),
                new Call(
                        "POST",
                        "/api/v1/auth/device",
                        "/api/v1/auth/device",
                        Map.of("client_name", "matrix"),
                        200,
                        200,
                        200,
                        200,
                        200),
                new Call(
                        "POST",
                        "/api/v1/auth/device/token",
                        "/api/v1/auth/device/token",
                        Map.of("grant_type", "urn:ietf:params:oauth:grant-type:device_code", "device_code", "nope"),
                        400,
                        400,
                        400,
                        400,
                        400),
                new Call(
                        "GET",
                        "/api/v1/auth/device/{userCode}",
                        "/api/v1/auth/device/ZZZZ-ZZZZ",
                        null,
                        401,
                        404,
                        404,
                        404,
                        404),
                new Call(
                        "POST",
                        "/api/v1/auth/device/{userCode}/approve",
                        "/api/v1/auth/device/ZZZZ-ZZZZ/approve",
                        null,
                        401,
                        404,
                        404,
                        404,
                        404),
                new Call(
                        "POST",
                        "/api/v1/auth/device/{userCode}/deny",
                        "/api/v1/auth/device/ZZZZ-ZZZZ/deny",
                        null,
                        401,
                        404,
                        404,
                        404,
                        404),
                new Call("GET", "/api/v1/me", "/api/v1/me", null, 401, 200, 200, 200, 200),
                new Call("PATCH", "/api/v1/me", "/api/v1/me", Map.of("email", "not-an-email"), 401, 400, 400, 400, 400),
                new Call(
                        "POST",
                        "/api/v1/me/password",
                        "/api/v1/me/password",
                        Map.of("currentPassword", "wrong", "newPassword", "Another-pass-99"),
                        401,
                        400,
                        400,
                        400,
                        400),
                new Call("GET", "/api/v1/me/tokens", "/api/v1/me/tokens", null, 401, 200, 200, 200, 200),
                new Call("POST", "/api/v1/me/tokens", "/api/v1/me/tokens", Map.of("name", ""), 401, 400, 400, 400, 400),
                new Call("DELETE", "/api/v1/me/tokens/{id}", "/api/v1/me/tokens/999999", null, 401, 404, 404, 404, 404),
                new Call("GET", "/api/v1/me/ssh-keys", "/api/v1/me/ssh-keys", null, 401, 200, 200, 200, 200),
                new Call(
                        "POST",
                        "/api/v1/me/ssh-keys",
                        "/api/v1/me/ssh-keys",
                        Map.of("name", "x", "publicKey", "nope"),
                        401,
                        400,
                        400,
                        400,
                        400),
                new Call(
                        "DELETE",
                        "/api/v1/me/ssh-keys/{id}",
                        "/api/v1/me/ssh-keys/999999",
                        null,
                        401,
                        404,
                        404,
                        404,
                        404),
                new Call("GET", "/api/v1/me/credentials", "/api/v1/me/credentials", null, 401, 200, 200, 200, 200),
                new Call(
                        "POST",
                        "/api/v1/me/credentials",
                        "/api/v1/me/credentials",
                        Map.of("name", "Not Valid", "kind", "generic", "value", "v"),
                        401,
                        400,
                        400,
                        400,
                        400),
                new Call(
                        "GET",
                        "/api/v1/me/credentials/{name}",
                        "/api/v1/me/credentials/none-here",
                        null,
                        401,
                        404,
                        404,
                        404,
                        404),
                new Call(
                        "PUT",
                        "/api/v1/me/credentials/{name}",
                        "/api/v1/me/credentials/none-here",
                        Map.of("value", "v"),
                        401,
                        404,
                        404,
                        404,
                        404),
                new Call(
                        "DELETE",
                        "/api/v1/me/credentials/{name}",
                        "/api/v1/me/credentials/none-here",
                        null,
                        401,
                        404,
                        404,
                        404,
                        404),
                new Call("GET", "/api/v1/assets", "/api/v1/assets?kind=dataset", null, 401, 200, 200, 200, 200),
                new Call(
                        "POST",
                        "/api/v1/assets",
                        "/api/v1/assets",
                        Map.of("kind", "dataset", "name", "Not Valid", "path", "/x"),
                        401,
                        400,
                        400,
                        400,
                        400),
                new Call("GET", "/api/v1/assets/{id}", "/api/v1/assets/ds_nonehere00", null, 401, 404, 404, 404, 404),
                new Call(
                        "PUT",
                        "/api/v1/assets/{id}",
                        "/api/v1/assets/ds_nonehere00",
                        Map.of("description", "d"),
                        401,
                        404,
                        404,
                        404,
                        404),
                new Call(
                        "POST",
                        "/api/v1/assets/{id}/refresh",
                        "/api/v1/assets/ds_nonehere00/refresh",
                        null,
                        401,
                        404,
                        404,
                        404,
                        404),
                new Call(
                        "DELETE", "/api/v1/assets/{id}", "/api/v1/assets/ds_nonehere00", null, 401, 404, 404, 404, 404),
                new Call("GET", "/api/v1/assets/downloads", "/api/v1/assets/downloads", null, 401, 200, 200, 200, 200),
                new Call(
                        "POST",
                        "/api/v1/assets/downloads",
                        "/api/v1/assets/downloads",
                        Map.of("kind", "model", "repository", "not a repo", "name", "x", "path", "/x"),
                        401,
                        400,
                        400,
                        400,
                        400),
                new Call(
                        "GET",
                        "/api/v1/assets/downloads/{id}",
                        "/api/v1/assets/downloads/dl_nonehere00",
                        null,
                        401,
                        404,
                        404,
                        404,
                        404),
                new Call(
                        "POST",
                        "/api/v1/assets/downloads/{id}/pause",
                        "/api/v1/assets/downloads/dl_nonehere00/pause",
                        null,
                        401,
                        404,
                        404,
                        404,
                        404),
                new Call(
                        "POST",
                        "/api/v1/assets/downloads/{id}/resume",
                        "/api/v1/assets/downloads/dl_nonehere00/resume",
                        null,
                        401,
                        404,
                        404,
                        404,
                        404),
                new Call(
                        "POST",
                        "/api/v1/assets/downloads/{id}/retry",
                        "/api/v1/assets/downloads/dl_nonehere00/retry",
                        Map.of(),
                        401,
                        404,
                        404,
                        404,
                        404),
                new Call("GET", "/api/v1/images", "/api/v1/images?kind=jupyter", null, 401, 200, 200, 200, 200),
                new Call(
                        "POST",
                        "/api/v1/images",
                        "/api/v1/images",
                        Map.of("reference", "Not Valid", "tags", List.of("latest")),
                        401,
                        400,
                        400,
                        400,
                        400),
                new Call("GET", "/api/v1/images/{id}", "/api/v1/images/im_nonehere00", null, 401, 404, 404, 404, 404),
                new Call(
                        "PUT",
                        "/api/v1/images/{id}",
                        "/api/v1/images/im_nonehere00",
                        Map.of("description", "d"),
                        401,
                        404,
                        404,
                        404,
                        404),
                new Call(
                        "POST",
                        "/api/v1/images/{id}/validate",
                        "/api/v1/images/im_nonehere00/validate",
                        null,
                        401,
                        404,
                        404,
                        404,
                        404),
                new Call(
                        "DELETE", "/api/v1/images/{id}", "/api/v1/images/im_nonehere00", null, 401, 404, 404, 404, 404),
                new Call("GET", "/api/v1/images/builds", "/api/v1/images/builds", null, 401, 200, 200, 200, 200),
                new Call(
                        "POST",
                        "/api/v1/images/builds",
                        "/api/v1/images/builds",
                        Map.of("base", "Not Valid", "pip", List.of("x"), "destination", "r.example/a/b:1"),
                        401,
                        400,
                        400,
                        400,
                        400),
                new Call(
                        "GET",
                        "/api/v1/images/builds/{id}",
                        "/api/v1/images/builds/ib_nonehere00",
                        null,
                        401,
                        404,
                        404,
                        404,
                        404),
                new Call(
                        "POST",
                        "/api/v1/images/builds/{id}/stop",
                        "/api/v1/images/builds/ib_nonehere00/stop",
                        null,
                        401,
                        404,
                        404,
                        404,
                        404),
                new Call("GET", "/api/v1/tensorboards", "/api/v1/tensorboards", null, 401, 200, 200, 200, 200),
                new Call(
                        "POST",
                        "/api/v1/tensorboards",
                        "/api/v1/tensorboards",
                        Map.of("name", "Bad Name", "sources", List.of()),
                        401,
                        400,
                        400,
                        400,
                        400),
                new Call(
                        "GET",
                        "/api/v1/tensorboards/{id}",
                        "/api/v1/tensorboards/tb_nonehere00",
                        null,
                        401,
                        404,
                        404,
                        404,
                        404),
                new Call(
                        "DELETE",
                        "/api/v1/tensorboards/{id}",
                        "/api/v1/tensorboards/tb_nonehere00",
                        null,
                        401,
                        404,
                        404,
                        404,
                        404),
                new Call(
                        "POST",
                        "/api/v1/tensorboards/{id}/open",
                        "/api/v1/tensorboards/tb_nonehere00/open",
                        null,
                        401,
                        404,
                        404,
                        404,
                        404),
                new Call(
                        "POST",
                        "/api/v1/tensorboards/{id}/stop",
                        "/api/v1/tensorboards/tb_nonehere00/stop",
                        null,
                        401,
                        404,
                        404,
                        404,
                        404),
                new Call(
                        "POST",
                        "/api/v1/tensorboards/{id}/start",
                        "/api/v1/tensorboards/tb_nonehere00/start",
                        null,
                        401,
                        404,
                        404,
                        404,
                        404),
                new Call("GET", "/api/v1/me/notifications", "/api/v1/me/notifications", null, 401, 200, 200, 200, 200),
                new Call("GET", "/api/v1/me/webhooks", "/api/v1/me/webhooks", null, 401, 200, 200, 200, 200),
                new Call(
                        "POST",
                        "/api/v1/me/webhooks",
                        "/api/v1/me/webhooks",
                        Map.of("name", "x", "url", "ftp://nowhere.example.org/h", "format", "generic"),
                        401,
                        400,
                        400,
                        400,
                        400),
                new Call(
                        "DELETE",
                        "/api/v1/me/webhooks/{id}",
                        "/api/v1/me/webhooks/wh_nonehere0000",
                        null,
                        401,
                        404,
                        404,
                        404,
                        404),
                new Call(
                        "POST",
                        "/api/v1/me/webhooks/{id}/test",
                        "/api/v1/me/webhooks/wh_nonehere0000/test",
                        null,
                        401,
                        404,
                        404,
                        404,
                        404),
                new Call(
                        "GET",
                        "/api/v1/me/webhooks/{id}/deliveries",
                        "/api/v1/me/webhooks/wh_nonehere0000/deliveries",
                        null,
                        401,
                        404,
                        404,
                        404,
                        404),
                new Call(
                        "GET",
                        "/api/v1/accounts/{slug}/webhooks",
                        "/api/v1/accounts/mx-lab/webhooks",
                        null,
                        401,
                        403,
                        403,
                        200,
                        200),
                new Call(
                        "POST",
                        "/api/v1/accounts/{slug}/webhooks",
                        "/api/v1/accounts/mx-lab/webhooks",
                        Map.of("name", "x", "url", "ftp://nowhere.example.org/h", "format", "generic"),
                        401,
                        403,
                        403,
                        400,
                        400),
                new Call(
                        "DELETE",
                        "/api/v1/accounts/{slug}/webhooks/{id}",
                        "/api/v1/accounts/mx-lab/webhooks/wh_nonehere0000",
                        null,
                        401,
                        403,
                        403,
                        404,
                        404),
                new Call(
                        "POST",
                        "/api/v1/accounts/{slug}/webhooks/{id}/test",
                        "/api/v1/accounts/mx-lab/webhooks/wh_nonehere0000/test",
                        null,
                        401,
                        403,
                        403,
                        404,
                        404),
                new Call(
                        "GET",
                        "/api/v1/accounts/{slug}/webhooks/{id}/deliveries",
                        "/api/v1/accounts/mx-lab/webhooks/wh_nonehere0000/deliveries",
                        null,
                        401,
                        403,
                        403,
                        404,
                        404),
                new Call(
                        "GET",
                        "/api/v1/me/notification-preferences",
                        "/api/v1/me/notification-preferences",
                        null,
                        401,
                        200,
                        200,
                        200,
                        200),
                new Call(
                        "PUT",
                        "/api/v1/me/notification-preferences",
                        "/api/v1/me/notification-preferences",
                        Map.of("preferences", List.of(Map.of("kind", "job.nope", "channel", "email", "enabled", true))),
                        401,
                        400,
                        400,
                        400,
                        400),
                new Call(
                        "POST",
                        "/api/v1/me/notifications/{id}/read",
                        "/api/v1/me/notifications/999999/read",
                        null,
                        401,
                        404,
                        404,
                        404,
                        404),
                new Call("GET", "/api/v1/onboarding", "/api/v1/onboarding", null, 401, 403, 403, 403, 200),
                new Call(
                        "POST",
                        "/api/v1/accounts/{slug}/archive",
                        "/api/v1/accounts/u-mx-member/archive",
                        null,
                        401,
                        403,
                        403,
                        403,
                        409),
                new Call("GET", "/api/v1/users", "/api/v1/users", null, 401, 403, 403, 403, 200),
                new Call("POST", "/api/v1/users", "/api/v1/users", Map.of("username", "x"), 401, 403, 403, 403, 400),
                new Call("POST", "/api/v1/users/import", "/api/v1/users/import", "", 401, 403, 403, 403, 400),
                new Call("GET", "/api/v1/directory", "/api/v1/directory", null, 401, 403, 403, 403, 200),
                // No directory is configured in this profile: a platform admin's sync is refused with 409.
                new Call("POST", "/api/v1/directory/sync", "/api/v1/directory/sync", null, 401, 403, 403, 403, 409),
                new Call("GET", "/api/v1/users/{username}", "/api/v1/users/mx.member", null, 401, 403, 403, 403, 200),
                new Call(
                        "PATCH",
                        "/api/v1/users/{username}",
                        "/api/v1/users/mx.victim",
                        Map.of("displayName", "Victim"),
                        401,
                        403,
                        403,
                        403,
                        200),
                new Call(
                        "POST",
                        "/api/v1/users/{username}/password-reset",
                        "/api/v1/users/mx.victim/password-reset",
                        null,
                        401,
                        403,
                        403,
                        403,
                        200),
                new Call("GET", "/api/v1/accounts", "/api/v1/accounts", null, 401, 200, 200, 200, 200),
                new Call(
                        "POST",
                        "/api/v1/accounts",
                        "/api/v1/accounts",
                        Map.of("slug", "Bad Slug"),
                        401,
                        403,
                        403,
                        403,
                        400),
                new Call("GET", "/api/v1/accounts/{slug}", acc, null, 401, 403, 200, 200, 200),
                new Call(
                        "PATCH", "/api/v1/accounts/{slug}", acc, Map.of("name", "Matrix Lab"), 401, 403, 403, 403, 200),
                new Call(
                        "PUT",
                        "/api/v1/accounts/{slug}/quota",
                        acc + "/quota",
                        Map.of("items", List.of(Map.of("resource", "nvidia-a100-80gb", "guaranteed", "4", "max", "8"))),
                        401,
                        403,
                        403,
                        403,
                        200),
                new Call("GET", "/api/v1/accounts/{slug}/members", acc + "/members", null, 401, 403, 200, 200, 200),
                new Call(
                        "PUT",
                        "/api/v1/accounts/{slug}/members/{username}",
                        acc + "/members/mx.member",
                        Map.of("role", "member"),
                        401,
                        403,
                        403,
                        200,
                        200),
                new Call(
                        "DELETE",
                        "/api/v1/accounts/{slug}/members/{username}",
                        acc + "/members/mx.out",
                        null,
                        401,
                        403,
                        403,
                        404,
                        404),
                new Call("GET", "/api/v1/accounts/{slug}/limits", acc + "/limits", null, 401, 403, 200, 200, 200),
                new Call(
                        "PUT",
                        "/api/v1/accounts/{slug}/limits",
                        acc + "/limits",
                        Map.of("maxRunningJobs", 5),
                        401,
                        403,
                        403,
                        200,
                        200),
                new Call(
                        "GET",
                        "/api/v1/accounts/{slug}/members/{username}/limits",
                        acc + "/members/mx.member/limits",
                        null,
                        401,
                        403,
                        200,
                        200,
                        200),
                new Call(
                        "PUT",
                        "/api/v1/accounts/{slug}/members/{username}/limits",
                        acc + "/members/mx.member/limits",
                        Map.of("resources", Map.of("nvidia-a100-80gb", "2")),
                        401,
                        403,
                        403,
                        200,
                        200),
                new Call("POST", "/api/v1/approvals", "/api/v1/approvals", grantBody, 401, 403, 201, 201, 201),
                new Call("GET", "/api/v1/approvals", "/api/v1/approvals?scope=review", null, 401, 200, 200, 200, 200),
                new Call(
                        "POST",
                        "/api/v1/approvals/{id}/approve",
                        "/api/v1/approvals/" + grantToApprove + "/approve",
                        Map.of(),
                        401,
                        403,
                        403,
                        403,
                        200),
                new Call(
                        "POST",
                        "/api/v1/approvals/{id}/reject",
                        "/api/v1/approvals/" + grantToReject + "/reject",
                        Map.of(),
                        401,
                        403,
                        403,
                        403,
                        200),
                new Call(
                        "POST",
                        "/api/v1/approvals/{id}/cancel",
                        "/api/v1/approvals/" + grantToCancel + "/cancel",
                        null,
                        401,
                        403,
                        200,
                        403,
                        403),
                new Call("GET", "/api/v1/audit", "/api/v1/audit", null, 401, 403, 403, 403, 200),
                new Call("GET", "/api/v1/audit/denied", "/api/v1/audit/denied", null, 401, 403, 403, 403, 200),
                new Call("GET", "/api/v1/cluster/nodes", "/api/v1/cluster/nodes", null, 401, 403, 403, 403, 200),
                new Call(
                        "GET", "/api/v1/cluster/readiness", "/api/v1/cluster/readiness", null, 401, 403, 403, 403, 200),
                new Call(
                        "POST",
                        "/api/v1/cluster/readiness/check",
                        "/api/v1/cluster/readiness/check",
                        null,
                        401,
                        403,
                        403,
                        403,
                        200),
                // Node administration: platform admins only; the node does not exist, so the admin's call changes
                // nothing either (404).
                new Call(
                        "GET",
                        "/api/v1/admin/nodes/{name}",
                        "/api/v1/admin/nodes/matrix-none",
                        null,
                        401,
                        403,
                        403,
                        403,
                        404),
                new Call(
                        "POST",
                        "/api/v1/admin/nodes/{name}/cordon",
                        "/api/v1/admin/nodes/matrix-none/cordon",
                        Map.of("reason", "matrix"),
                        401,
                        403,
                        403,
                        403,
                        404),
                new Call(
                        "POST",
                        "/api/v1/admin/nodes/{name}/uncordon",
                        "/api/v1/admin/nodes/matrix-none/uncordon",
                        null,
                        401,
                        403,
                        403,
                        403,
                        404),
                new Call(
                        "POST",
                        "/api/v1/admin/nodes/{name}/drain",
                        "/api/v1/admin/nodes/matrix-none/drain",
                        Map.of("reason", "matrix"),
                        401,
                        403,
                        403,
                        403,
                        404),
                new Call(
                        "PATCH",
                        "/api/v1/admin/nodes/{name}/labels",
                        "/api/v1/admin/nodes/matrix-none/labels",
                        Map.of("set", Map.of("rack", "r1")),
                        401,
                        403,
                        403,
                        403,
                        404),
                new Call(
                        "PATCH",
                        "/api/v1/admin/nodes/{name}/taints",
                        "/api/v1/admin/nodes/matrix-none/taints",
                        Map.of("add", List.of(Map.of("key", "dedicated", "effect", "NoSchedule"))),
                        401,
                        403,
                        403,
                        403,
                        404),
                new Call(
                        "PUT",
                        "/api/v1/admin/nodes/{name}/exclusive",
                        "/api/v1/admin/nodes/matrix-none/exclusive",
                        Map.of("account", "matrix-none"),
                        401,
                        403,
                        403,
                        403,
                        404),
                new Call(
                        "DELETE",
                        "/api/v1/admin/nodes/{name}/exclusive",
                        "/api/v1/admin/nodes/matrix-none/exclusive",
                        null,
                        401,
                        403,
                        403,
                        403,
                        404),
                new Call(
                        "GET",
                        "/api/v1/admin/nodes/{name}/health",
                        "/api/v1/admin/nodes/matrix-none/health",
                        null,
                        401,
                        403,
                        403,
                        403,
                        404),
                new Call(
                        "POST",
                        "/api/v1/admin/nodes/{name}/health/clear",
                        "/api/v1/admin/nodes/matrix-none/health/clear",
                        Map.of("reason", "matrix"),
                        401,
                        403,
                        403,
                        403,
                        404),
                new Call("GET", "/api/v1/cluster/gpus", "/api/v1/cluster/gpus", null, 401, 200, 200, 200, 200),
                new Call(
                        "GET",
                        "/api/v1/cluster/free-accelerators",
                        "/api/v1/cluster/free-accelerators",
                        null,
                        401,
                        200,
                        200,
                        200,
                        200),
                new Call(
                        "GET",
                        "/api/v1/cluster/gpu-history",
                        "/api/v1/cluster/gpu-history",
                        null,
                        401,
                        200,
                        200,
                        200,
                        200),
                new Call(
                        "GET",
                        "/api/v1/cluster/accelerators",
                        "/api/v1/cluster/accelerators",
                        null,
                        401,
                        200,
                        200,
                        200,
                        200),
                new Call("GET", "/api/v1/events", "/api/v1/events?topics=nodes", null, 401, 403, 403, 403, 200),
                new Call(
                        "GET",
                        "/api/v1/accelerator-models",
                        "/api/v1/accelerator-models",
                        null,
                        401,
                        200,
                        200,
                        200,
                        200),
                new Call(
                        "POST",
                        "/api/v1/jobs",
                        "/api/v1/jobs",
                        Map.of("name", "x", "kind", "bogus"),
                        401,
                        400,
                        400,
                        400,
                        400),
                new Call("GET", "/api/v1/jobs", "/api/v1/jobs", null, 401, 200, 200, 200, 200),
                new Call("GET", "/api/v1/jobs/{id}", "/api/v1/jobs/" + jobToRead, null, 401, 403, 200, 200, 200),
                new Call(
                        "GET",
                        "/api/v1/jobs/{id}/logs",
                        "/api/v1/jobs/" + jobToRead + "/logs",
                        null,
                        401,
                        403,
                        404,
                        404,
                        404),
                new Call(
                        "GET",
                        "/api/v1/jobs/{id}/logs/stream",
                        "/api/v1/jobs/" + jobToRead + "/logs/stream",
                        null,
                        401,
                        403,
                        404,
                        404,
                        404),
                new Call(
                        "POST",
                        "/api/v1/jobs/{id}/stop",
                        "/api/v1/jobs/" + jobToStop + "/stop",
                        null,
                        401,
                        403,
                        200,
                        409,
                        409),
                new Call("DELETE", "/api/v1/jobs/{id}", "/api/v1/jobs/" + jobToStop, null, 401, 403, 204, 404, 404),
                new Call(
                        "GET",
                        "/api/v1/jobs/{id}/wait",
                        "/api/v1/jobs/" + jobToRead + "/wait",
                        null,
                        401,
                        403,
                        200,
                        200,
                        200),
                new Call(
                        "GET",
                        "/api/v1/jobs/{id}/gpu-utilisation",
                        "/api/v1/jobs/" + jobToRead + "/gpu-utilisation",
                        null,
                        401,
                        403,
                        200,
                        200,
                        200),
                new Call(
                        "GET",
                        "/api/v1/jobs/{id}/gpu-metrics/stream",
                        "/api/v1/jobs/" + jobToRead + "/gpu-metrics/stream",
                        null,
                        401,
                        403,
                        200,
                        200,
                        200),
                new Call(
                        "GET",
                        "/api/v1/accounts/{slug}/idle-reclaims",
                        acc + "/idle-reclaims",
                        null,
                        401,
                        403,
                        403,
                        200,
                        200),
                new Call(
                        "POST",
                        "/api/v1/jobs/{id}/open",
                        "/api/v1/jobs/" + jobToRead + "/open",
                        null,
                        401,
                        403,
                        409,
                        403,
                        403),
                new Call(
                        "GET",
                        "/api/v1/jobs/{id}/connect",
                        "/api/v1/jobs/" + jobToRead + "/connect",
                        null,
                        401,
                        403,
                        200,
                        200,
                        200),
                new Call(
                        "GET",
                        "/api/v1/jobs/{id}/manifests",
                        "/api/v1/jobs/" + jobToRead + "/manifests",
                        null,
                        401,
                        403,
                        200,
                        200,
                        200),
                new Call(
                        "POST",
                        "/api/v1/jobs/{id}/resubmit",
                        "/api/v1/jobs/" + jobToRead + "/resubmit",
                        null,
                        401,
                        403,
                        201,
                        201,
                        403),
                new Call(
                        "POST",
                        "/api/v1/jobs/{id}/template",
                        "/api/v1/jobs/" + jobToRead + "/template",
                        Map.of("name", "from job", "visibility", "private"),
                        401,
                        403,
                        201,
                        201,
                        201),
                new Call("GET", "/api/v1/templates", "/api/v1/templates", null, 401, 200, 200, 200, 200),
                new Call("POST", "/api/v1/templates", "/api/v1/templates", template("new"), 401, 201, 201, 201, 201),
                new Call("GET", "/api/v1/templates/{id}", "/api/v1/templates/batch", null, 401, 200, 200, 200, 200),
                new Call(
                        "GET",
                        "/api/v1/templates/{id}/versions",
                        "/api/v1/templates/batch/versions",
                        null,
                        401,
                        200,
                        200,
                        200,
                        200),
                new Call(
                        "POST",
                        "/api/v1/templates/{id}/render",
                        "/api/v1/templates/batch/render",
                        Map.of("parameters", Map.of("command", "echo hi")),
                        401,
                        200,
                        200,
                        200,
                        200),
                new Call(
                        "PUT",
                        "/api/v1/templates/{id}",
                        "/api/v1/templates/" + templateToEdit,
                        template("mine, again"),
                        401,
                        404,
                        200,
                        404,
                        200),
                new Call(
                        "DELETE",
                        "/api/v1/templates/{id}",
                        "/api/v1/templates/" + templateToEdit,
                        null,
                        401,
                        404,
                        204,
                        404,
                        404),
                new Call(
                        "GET",
                        "/api/v1/accounts/{slug}/time-limits",
                        acc + "/time-limits",
                        null,
                        401,
                        403,
                        200,
                        200,
                        200),
                new Call(
                        "PUT",
                        "/api/v1/accounts/{slug}/time-limits",
                        acc + "/time-limits",
                        Map.of("batchMax", "3d"),
                        401,
                        403,
                        403,
                        403,
                        200),
                new Call("GET", "/api/v1/accounts/{slug}/features", acc + "/features", null, 401, 403, 200, 200, 200),
                new Call(
                        "PUT",
                        "/api/v1/accounts/{slug}/features",
                        acc + "/features",
                        Map.of("ingressBandwidth", "100M"),
                        401,
                        403,
                        403,
                        403,
                        200),
                new Call(
                        "POST",
                        "/api/v1/accelerator-models",
                        "/api/v1/accelerator-models",
                        Map.of("key", "Not A Key"),
                        401,
                        403,
                        403,
                        403,
                        400),
                new Call(
                        "DELETE",
                        "/api/v1/accelerator-models/{key}",
                        "/api/v1/accelerator-models/mx-no-such-model",
                        null,
                        401,
                        403,
                        403,
                        403,
                        404),
                new Call(
                        "POST",
                        "/api/v1/accelerator-models/{key}/retire",
                        "/api/v1/accelerator-models/mx-no-such-model/retire",
                        null,
                        401,
                        403,
                        403,
                        403,
                        404),
                new Call(
                        "POST",
                        "/api/v1/accelerator-models/{key}/unretire",
                        "/api/v1/accelerator-models/mx-no-such-model/unretire",
                        null,
                        401,
                        403,
                        403,
                        403,
                        404),
                new Call(
                        "GET",
                        "/api/v1/accelerator-models/proposals",
                        "/api/v1/accelerator-models/proposals",
                        null,
                        401,
                        403,
                        403,
                        403,
                        200),
                new Call(
                        "POST",
                        "/api/v1/accelerator-models/proposals/{key}/accept",
                        "/api/v1/accelerator-models/proposals/mx-no-such-model/accept",
                        Map.of(),
                        401,
                        403,
                        403,
                        403,
                        404),
                new Call(
                        "PATCH",
                        "/api/v1/accelerator-models/{key}",
                        "/api/v1/accelerator-models/nvidia-rtx-4090",
                        Map.of(),
                        401,
                        403,
                        403,
                        403,
                        200),
                new Call(
                        "GET", "/api/v1/accounting/prices", "/api/v1/accounting/prices", null, 401, 200, 200, 200, 200),
                new Call(
                        "POST",
                        "/api/v1/accounting/prices",
                        "/api/v1/accounting/prices",
                        Map.of("resource", "mx-model", "pricePerHour", "1.5"),
                        401,
                        403,
                        403,
                        403,
                        201),
                new Call(
                        "GET",
                        "/api/v1/accounting/accounts/{slug}/budget",
                        "/api/v1/accounting/accounts/mx-lab/budget",
                        null,
                        401,
                        403,
                        200,
                        200,
                        200),
                new Call(
                        "PUT",
                        "/api/v1/accounting/accounts/{slug}/budget",
                        "/api/v1/accounting/accounts/mx-lab/budget",
                        Map.of("amount", "100"),
                        401,
                        403,
                        403,
                        403,
                        200),
                new Call(
                        "POST",
                        "/api/v1/accounting/accounts/{slug}/budget/top-ups",
                        "/api/v1/accounting/accounts/mx-lab/budget/top-ups",
                        Map.of("amount", "5"),
                        401,
                        403,
                        403,
                        403,
                        200),
                // Allotments: the PUT budget above gave mx-lab a budget of 100; a member reads only their own.
                new Call(
                        "PUT",
                        "/api/v1/accounting/accounts/{slug}/budget/allotments/{username}",
                        "/api/v1/accounting/accounts/mx-lab/budget/allotments/mx.member",
                        Map.of("amount", "50"),
                        401,
                        403,
                        403,
                        200,
                        200),
                new Call(
                        "GET",
                        "/api/v1/accounting/accounts/{slug}/budget/allotments",
                        "/api/v1/accounting/accounts/mx-lab/budget/allotments",
                        null,
                        401,
                        403,
                        200,
                        200,
                        200),
                new Call(
                        "DELETE",
                        "/api/v1/accounting/accounts/{slug}/budget/allotments/{username}",
                        "/api/v1/accounting/accounts/mx-lab/budget/allotments/mx.member",
                        null,
                        401,
                        403,
                        403,
                        204,
                        204),
                new Call(
                        "GET",
                        "/api/v1/accounting/accounts/{slug}/ledger",
                        "/api/v1/accounting/accounts/mx-lab/ledger",
                        null,
                        401,
                        403,
                        200,
                        200,
                        200),
                new Call(
                        "GET",
                        "/api/v1/accounting/usage",
                        "/api/v1/accounting/usage?account=mx-lab",
                        null,
                        401,
                        403,
                        200,
                        200,
                        200),
                // Statements are for the account's admins; mx-lab has none (no month of it is over), hence 404.
                new Call(
                        "GET",
                        "/api/v1/accounting/accounts/{slug}/statements",
                        "/api/v1/accounting/accounts/mx-lab/statements",
                        null,
                        401,
                        403,
                        403,
                        200,
                        200),
                new Call(
                        "GET",
                        "/api/v1/accounting/accounts/{slug}/statements/{period}",
                        "/api/v1/accounting/accounts/mx-lab/statements/2026-01",
                        null,
                        401,
                        403,
                        403,
                        404,
                        404),
                new Call("GET", "/api/v1/accounting/check", "/api/v1/accounting/check", null, 401, 403, 403, 403, 200),
                new Call(
                        "POST",
                        "/api/v1/accounting/settle",
                        "/api/v1/accounting/settle",
                        null,
                        401,
                        403,
                        403,
                        403,
                        200),
                // File spaces (docs/storage.md): each caller's own space, mx-lab's for its members only (others get
                // 404, platform admins included), public written by platform admins alone.
                new Call("GET", "/api/v1/spaces", "/api/v1/spaces", null, 401, 200, 200, 200, 200),
                new Call(
                        "PUT",
                        "/api/v1/spaces/{space}/quota",
                        "/api/v1/spaces/account:mx-lab/quota",
                        Map.of("maxBytes", 1_000_000_000L, "maxFiles", 100_000),
                        401,
                        403,
                        403,
                        403,
                        200),
                new Call(
                        "DELETE",
                        "/api/v1/spaces/{space}/quota",
                        "/api/v1/spaces/account:mx-lab/quota",
                        null,
                        401,
                        403,
                        403,
                        403,
                        200),
                new Call(
                        "GET",
                        "/api/v1/files/{space}{path}",
                        "/api/v1/files/account:mx-lab",
                        null,
                        401,
                        404,
                        200,
                        200,
                        404),
                new Call(
                        "POST",
                        "/api/v1/files/{space}{path}",
                        "/api/v1/files/user/mx-dir",
                        Map.of("action", "mkdir"),
                        401,
                        201,
                        201,
                        201,
                        201),
                new Call(
                        "DELETE",
                        "/api/v1/files/{space}{path}",
                        "/api/v1/files/user/mx-dir",
                        null,
                        401,
                        200,
                        200,
                        200,
                        200),
                new Call(
                        "PUT",
                        "/api/v1/files/{space}{path}",
                        "/api/v1/files/public/mx.txt",
                        "x",
                        401,
                        403,
                        403,
                        403,
                        201),
                new Call("GET", "/api/v1/trash/{space}", "/api/v1/trash/account:mx-lab", null, 401, 404, 200, 200, 404),
                new Call(
                        "POST",
                        "/api/v1/trash/{space}/{id}/restore",
                        "/api/v1/trash/user/999999/restore",
                        null,
                        401,
                        404,
                        404,
                        404,
                        404),
                // Where the command-line client comes from: public, like the console's own files.
                new Call("GET", "/api/v1/cli", "/api/v1/cli", null, 200, 200, 200, 200, 200),
                // The MCP endpoint: anyone signed in may open a session; its tools then check as the API does.
                new Call("POST", "/mcp", "/mcp", mcpInitialize(), 401, 200, 200, 200, 200),
                new Call("GET", "/mcp", "/mcp", null, 401, 405, 405, 405, 405),
                new Call("DELETE", "/mcp", "/mcp", null, 401, 400, 400, 400, 400));
    }

    static Map<String, Object> mcpInitialize() {
        return Map.of(
                "jsonrpc",
                "2.0",
                "id",
                1,
                "method",
                "initialize",
                "params",
                Map.of("protocolVersion", "2025-06-18", "capabilities", Map.of(), "clientInfo", Map.of("name", "m")));
    }

    @Test
    void everyEndpointAnswersEachRoleAsListedAndRefusalsChangeNothing() throws Exception {
        people();
        List<String> failures = new ArrayList<>();
        for (Call call : calls()) {
            for (int i = 0; i < ROLES.length; i++) {
                String role = ROLES[i];
                String before = fingerprint();
                int status = (call.template().equals("/api/v1/events")
                                || call.template().endsWith("/stream"))
                        ? streamStatus(call.path(), tokens.get(role))
                        : send(call, tokens.get(role)).statusCode();
                if (status != call.expected()[i]) {
                    failures.add(call.method() + " " + call.path() + " as " + role + ": " + status + ", expected "
                            + call.expected()[i]);
                }
                if ((status == 401 || status == 403) && !before.equals(fingerprint())) {
                    failures.add(call.method() + " " + call.path() + " as " + role
                            + " was refused but changed the database");
                }
            }
        }
        assertThat(failures).isEmpty();
    }

    @Test
    void theMatrixListsEveryEndpointOfTheApi() {
        Map<String, Map<String, Object>> paths = given().get("/q/openapi?format=json")
                .then()
                .statusCode(200)
                .extract()
                .path("paths");
        TreeSet<String> api = new TreeSet<>();
        paths.forEach((path, ops) -> ops.keySet().forEach(m -> {
            if ((path.startsWith("/api/") || path.equals("/mcp"))
                    && List.of("get", "post", "put", "patch", "delete").contains(m)) {
                api.add(m.toUpperCase() + " " + path);
            }
        }));
        TreeSet<String> listed = new TreeSet<>();
        calls().forEach(c -> listed.add(c.method() + " " + c.template()));
        assertThat(listed).containsAll(api);
        assertThat(api).containsAll(listed);
    }

    private Response send(Call call, String token) {
        RequestSpecification spec =
                given().contentType(call.path().endsWith("/import") ? ContentType.TEXT : ContentType.JSON);
        if (call.path().endsWith("/import")) {
            spec = given().contentType("text/csv");
        }
        if (token != null) {
            spec = spec.auth().oauth2(token);
        }
        if (call.body() != null) {
            spec = spec.body(call.body());
        }
        return spec.request(call.method(), call.path());
    }

    /** The status of an event stream request, without waiting for the stream to end. */
    private int streamStatus(String path, String token) throws Exception {
        HttpRequest.Builder req = HttpRequest.newBuilder(
                        URI.create(base.toString().replaceAll("/$", "") + path))
                .timeout(Duration.ofSeconds(10));
        if (token != null) {
            req.header("Authorization", "Bearer " + token);
        }
        HttpResponse<java.io.InputStream> r =
                HttpClient.newHttpClient().send(req.build(), HttpResponse.BodyHandlers.ofInputStream());
        r.body().close();
        return r.statusCode();
    }

    /** A digest of every governance table except the logs of refusals and sign-in throttling. */
    static String fingerprint() throws Exception {
        var config = ConfigProvider.getConfig();
        String url = config.getValue("quarkus.datasource.jdbc.url", String.class);
        String user = config.getValue("quarkus.datasource.username", String.class);
        String password = config.getOptionalValue("quarkus.datasource.password", String.class)
                .orElse("");
        StringBuilder sb = new StringBuilder();
        try (Connection c = DriverManager.getConnection(url, user, password);
                Statement s = c.createStatement()) {
            for (String table : List.of(
                    "users",
                    "accounts",
                    "account_members",
                    "quotas",
                    "member_limits",
                    "member_limit_resources",
                    "approvals",
                    "personal_access_tokens",
                    "ssh_keys",
                    "notifications",
                    "notification_preferences",
                    "notification_thresholds",
                    "webhooks",
                    "accelerator_models",
                    "audit_log",
                    "job_requests",
                    "job_templates",
                    "job_template_versions",
                    "prices",
                    "budgets",
                    "budget_allotments")) {
                // Jobs of earlier flows tell their owners of their states on their own: leave those notices out.
                String rows = table.equals("notifications")
                        ? "(SELECT * FROM notifications WHERE kind NOT IN ('job.admitted', 'job.started',"
                                + " 'job.succeeded', 'job.failed', 'job.waiting'))"
                        : table;
                try (ResultSet rs = s.executeQuery(
                        "SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) FROM " + rows + " t")) {
                    rs.next();
                    sb.append(table).append('=').append(rs.getString(1)).append(';');
                }
            }
            // Jobs move on their own (admission, the reconciler): compare what a call could change, not their state.
            try (ResultSet rs =
                    s.executeQuery("SELECT md5(coalesce(string_agg(concat_ws(',', id, public_id, account_id, user_id,"
                            + " CAST(spec AS text), stop_requested, deleted_at), '|' ORDER BY id), '')) FROM jobs")) {
                rs.next();
                sb.append("jobs=").append(rs.getString(1)).append(';');
            }
        }
        return sb.toString();
    }
}
