package io.crater.identity;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

import io.crater.CraterTestResource;
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
}
