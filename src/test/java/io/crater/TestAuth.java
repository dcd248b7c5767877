package io.crater;

import static io.restassured.RestAssured.given;

import io.restassured.http.ContentType;
import java.util.Map;

/** Signs in as the initial administrator once per test JVM. */
public final class TestAuth {

    private static String adminToken;

    private TestAuth() {}

    public static synchronized String adminToken() {
        if (adminToken == null) {
            String[] admin = CraterTestResource.initialAdmin();
            adminToken = given().contentType(ContentType.JSON)
                    .body(Map.of("username", admin[0], "password", admin[1]))
                    .post("/api/v1/auth/login")
                    .then()
                    .statusCode(200)
                    .extract()
                    .path("accessToken");
        }
        return adminToken;
    }
}
