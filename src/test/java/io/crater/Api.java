package io.crater;

import static io.restassured.RestAssured.given;

import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import java.util.List;
import java.util.Map;

/** Test helpers for calling the API as different people. */
public final class Api {

    private Api() {}

    public static String login(String username, String password) {
        return given().contentType(ContentType.JSON)
                .body(Map.of("username", username, "password", password))
                .post("/api/v1/auth/login")
                .then()
                .statusCode(200)
                .extract()
                .path("accessToken");
    }

    public static RequestSpecification as(String token) {
        return given().auth().oauth2(token).contentType(ContentType.JSON);
    }

    public static RequestSpecification admin() {
        return as(TestAuth.adminToken());
    }

    /** Creates a user with the given password (idempotent across tests) and signs them in. */
    public static String user(String username, String password) {
        admin().body(Map.of("username", username, "displayName", username, "password", password))
                .post("/api/v1/users");
        return login(username, password);
    }

    /**
     * A one-hour training job's body: {@code python train.py} in {@code python:3.12} with 2 CPUs, 8 GiB and
     * {@code gpus} accelerators of {@code model}.
     */
    public static Map<String, Object> trainingJob(String name, String model, int gpus) {
        return Map.of(
                "name",
                name,
                "kind",
                "custom",
                "image",
                "python:3.12",
                "command",
                List.of("python", "train.py"),
                "timeLimit",
                "1h",
                "resources",
                Map.of("cpu", "2", "memory", "8Gi", "acceleratorModel", model, "accelerators", gpus));
    }
}
