package io.crater.images;

import static io.crater.job.Flows.line;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

import io.crater.Api;
import io.crater.CraterTestResource;
import io.crater.RealRegistry;
import io.crater.job.Flows;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The image catalogue against real registries (Debian's distribution 2.8.2): an image pushed through the distribution
 * API is validated to its digest, a missing tag is not found, a registry behind htpasswd refuses until the owner
 * stores a registry credential (whose value no answer ever carries), a closed port is unreachable; an account's
 * member and a user it is shared with see it, an outsider gets 404 for everything; bad input changes nothing; the
 * job form's filter keeps the images that fit a kind and an accelerator.
 */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class ImageFlowTest {

    static final String PW = "Images-pass-2026";
    static final String ACCOUNT = "im-lab";
    static final String REGISTRY_PASSWORD = "s3cret-registry-Pa55";

    /** Every answer this test read, to look for the credential's value in. */
    final List<String> answers = new ArrayList<>();

    static RequestSpecification as(String token) {
        return Api.as(token).header("X-Crater-Account", ACCOUNT);
    }

    ValidatableResponse kept(ValidatableResponse r) {
        answers.add(r.extract().asString());
        return r;
    }

    static Map<String, Object> image(String reference, List<String> tags, Map<String, Object> more) {
        Map<String, Object> body = new HashMap<>(more);
        body.put("reference", reference);
        body.put("tags", tags);
        return body;
    }

    @Test
    void imagesAreValidatedAgainstTheirRegistryWithTheOwnersCredential() throws Exception {
        String owner = Api.user("im-owner", PW);
        String member = Api.user("im-member", PW);
        String friend = Api.user("im-friend", PW);
        String outsider = Api.user("im-outsider", PW);
        Flows.account(ACCOUNT, List.of(line("cpu", "8", "8")), "im-owner", "im-member");
        Flows.account("im-elsewhere", List.of(line("cpu", "8", "8")), "im-outsider", "im-friend");

        try (RealRegistry open = RealRegistry.start(null, null);
                RealRegistry locked = RealRegistry.start("puller", REGISTRY_PASSWORD)) {
            String digest = open.push("vision/trainer", "2.3-cuda12.1");
            String id = kept(as(owner)
                            .body(image(
                                    open.host() + "/vision/trainer",
                                    List.of("2.3-cuda12.1", "gone"),
                                    Map.of(
                                            "description",
                                            "PyTorch trainer",
                                            "cudaVersion",
                                            "12.1",
                                            "architectures",
                                            List.of("amd64", "arm64"),
                                            "vendors",
                                            List.of("NVIDIA"),
                                            "kinds",
                                            List.of("pytorch", "jupyter"),
                                            "visibility",
                                            "account",
                                            "account",
                                            ACCOUNT,
                                            "sharedWith",
                                            Map.of("users", List.of("im-friend")))))
                            .post("/api/v1/images")
                            .then()
                            .statusCode(201)
                            .body("reference", equalTo(open.host() + "/vision/trainer"))
                            .body("registry", equalTo(open.host()))
                            .body("repository", equalTo("vision/trainer"))
                            .body("vendors", equalTo(List.of("nvidia")))
                            .body("kinds", equalTo(List.of("jupyter", "pytorch")))
                            .body("sharedWith.users", equalTo(List.of("im-friend")))
                            .body("checks", equalTo(List.of())))
                    .extract()
                    .path("id");
            assertThat(id).startsWith("im_");

            kept(as(owner).post("/api/v1/images/" + id + "/validate").then().statusCode(200))
                    .body("checks.find { it.tag == '2.3-cuda12.1' }.result", equalTo("ok"))
                    .body("checks.find { it.tag == '2.3-cuda12.1' }.digest", equalTo(digest))
                    .body(
                            "checks.find { it.tag == '2.3-cuda12.1' }.mediaType",
                            equalTo("application/vnd.oci.image.manifest.v1+json"))
                    .body("checks.find { it.tag == 'gone' }.result", equalTo("not-found"))
                    .body(
                            "checks.find { it.tag == 'gone' }.detail",
                            equalTo("the registry has no manifest " + open.host() + "/vision/trainer:gone"));

            whoSeesWhat(id, owner, member, friend, outsider);
            theJobFormsFilter(id, member);
            lockedRegistry(locked, owner);
            unreachable(owner);
            badInputChangesNothing(owner, id);

            kept(as(owner).delete("/api/v1/images/" + id).then().statusCode(204));
            as(owner).get("/api/v1/images/" + id).then().statusCode(404);
        }
        assertThat(answers).isNotEmpty().noneMatch(a -> a.contains(REGISTRY_PASSWORD));
    }

    void whoSeesWhat(String id, String owner, String member, String friend, String outsider) {
        kept(as(member).get("/api/v1/images/" + id).then().statusCode(200))
                .body("mayEdit", equalTo(false))
                .body("sharedWith.users", equalTo(List.of()));
        kept(as(member)
                        .body(Map.of("description", "mine now"))
                        .put("/api/v1/images/" + id)
                        .then())
                .statusCode(403)
                .body("code", equalTo("NotImageOwner"));
        as(member).post("/api/v1/images/" + id + "/validate").then().statusCode(403);
        as(member).delete("/api/v1/images/" + id).then().statusCode(403);
        Api.as(friend).get("/api/v1/images/" + id).then().statusCode(200);
        Api.as(friend).get("/api/v1/images").then().statusCode(200).body("items.id", hasItem(id));

        Api.as(outsider).get("/api/v1/images").then().statusCode(200).body("items.id", not(hasItem(id)));
        for (ValidatableResponse r : List.of(
                Api.as(outsider).get("/api/v1/images/" + id).then(),
                Api.as(outsider)
                        .body(Map.of("description", "x"))
                        .put("/api/v1/images/" + id)
                        .then(),
                Api.as(outsider).post("/api/v1/images/" + id + "/validate").then(),
                Api.as(outsider).delete("/api/v1/images/" + id).then(),
                Api.as(outsider).get("/api/v1/images/im_nonehere00").then())) {
            r.statusCode(404).contentType("application/problem+json");
        }
        kept(as(owner).get("/api/v1/images/" + id).then().statusCode(200))
                .body("description", equalTo("PyTorch trainer"));

        // Taking the share away hides it from the friend again.
        as(owner)
                .body(Map.of("sharedWith", Map.of("users", List.of())))
                .put("/api/v1/images/" + id)
                .then()
                .statusCode(200)
                .body("sharedWith.users", equalTo(List.of()))
                .body("checks.size()", equalTo(2));
        Api.as(friend).get("/api/v1/images/" + id).then().statusCode(404);
        as(owner)
                .body(Map.of("sharedWith", Map.of("accounts", List.of("im-elsewhere"))))
                .put("/api/v1/images/" + id)
                .then()
                .statusCode(200)
                .body("sharedWith.accounts", equalTo(List.of("im-elsewhere")));
        Api.as(friend).get("/api/v1/images/" + id).then().statusCode(200);
        as(owner)
                .body(Map.of("sharedWith", Map.of("accounts", List.of())))
                .put("/api/v1/images/" + id)
                .then()
                .statusCode(200);
        Api.as(outsider).get("/api/v1/images/" + id).then().statusCode(404);
    }

    void theJobFormsFilter(String id, String member) {
        as(member)
                .get("/api/v1/images?kind=pytorch&vendor=nvidia")
                .then()
                .statusCode(200)
                .body("items.id", hasItem(id));
        as(member)
                .get("/api/v1/images?kind=jupyter&accelerator=nvidia-a100-80gb")
                .then()
                .statusCode(200)
                .body("items.id", hasItem(id));
        as(member).get("/api/v1/images?kind=inference").then().statusCode(200).body("items.id", not(hasItem(id)));
        as(member).get("/api/v1/images?vendor=huawei").then().statusCode(200).body("items.id", not(hasItem(id)));
        as(member).get("/api/v1/images?q=TRAINER").then().statusCode(200).body("items.id", hasItem(id));
        as(member).get("/api/v1/images?q=cuda12").then().statusCode(200).body("items.id", hasItem(id));
        as(member)
                .get("/api/v1/images?kind=training")
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("errors[0].field", equalTo("kind"));
        as(member)
                .get("/api/v1/images?accelerator=no-such-model")
                .then()
                .statusCode(400)
                .body("errors[0].field", equalTo("accelerator"));
    }

    void lockedRegistry(RealRegistry locked, String owner) throws Exception {
        String digest = locked.push("private/base", "v1");
        String id = kept(as(owner)
                        .body(image(locked.host() + "/private/base", List.of("v1"), Map.of()))
                        .post("/api/v1/images")
                        .then()
                        .statusCode(201))
                .extract()
                .path("id");
        kept(as(owner).post("/api/v1/images/" + id + "/validate").then().statusCode(200))
                .body("checks[0].result", equalTo("unauthorized"))
                .body("checks[0].detail", startsWith("the registry asks for a login"))
                .body("checks[0].digest", equalTo(null));

        kept(as(owner)
                .body(Map.of(
                        "name", "reg",
                        "kind", "registry",
                        "host", locked.host(),
                        "username", "puller",
                        "value", "wrong-password"))
                .post("/api/v1/me/credentials")
                .then()
                .statusCode(201));
        kept(as(owner).post("/api/v1/images/" + id + "/validate").then().statusCode(200))
                .body("checks[0].result", equalTo("unauthorized"))
                .body("checks[0].detail", startsWith("the registry refused the credential 'reg' (user puller)"));

        kept(as(owner)
                .body(Map.of("value", REGISTRY_PASSWORD))
                .put("/api/v1/me/credentials/reg")
                .then()
                .statusCode(200));
        kept(as(owner).post("/api/v1/images/" + id + "/validate").then().statusCode(200))
                .body("checks[0].result", equalTo("ok"))
                .body("checks[0].digest", equalTo(digest));
        kept(as(owner).get("/api/v1/me/credentials/reg").then().statusCode(200)).body("lastUsedAt", not(equalTo(null)));
        kept(as(owner).get("/api/v1/audit?limit=50").then());
        as(owner).delete("/api/v1/me/credentials/reg").then().statusCode(204);
        as(owner).delete("/api/v1/images/" + id).then().statusCode(204);
    }

    void unreachable(String owner) throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        String id = as(owner)
                .body(image("127.0.0.1:" + closed + "/nothing/here", List.of("latest"), Map.of()))
                .post("/api/v1/images")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        as(owner)
                .post("/api/v1/images/" + id + "/validate")
                .then()
                .statusCode(200)
                .body("checks[0].result", equalTo("unreachable"))
                .body("checks[0].detail", equalTo("cannot connect to 127.0.0.1:" + closed + " (connection refused)"));
        as(owner).delete("/api/v1/images/" + id).then().statusCode(204);
    }

    void badInputChangesNothing(String owner, String id) {
        int before = as(owner).get("/api/v1/images?mine=true").then().extract().path("items.size()");
        as(owner)
                .body(image(
                        "ghcr.io/Org/Trainer:latest",
                        List.of(".bad"),
                        Map.of(
                                "kinds",
                                List.of("training"),
                                "architectures",
                                List.of("x86"),
                                "cudaVersion",
                                "twelve",
                                "visibility",
                                "public")))
                .post("/api/v1/images")
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("code", equalTo("InvalidImage"))
                .body("errors.field", hasItem("reference"))
                .body("errors.field", hasItem("tags"))
                .body("errors.field", hasItem("kinds"))
                .body("errors.field", hasItem("architectures"))
                .body("errors.field", hasItem("cudaVersion"))
                .body("errors.field", hasItem("visibility"));
        as(owner)
                .body(image(
                        "ghcr.io/org/x", List.of("1"), Map.of("sharedWith", Map.of("users", List.of("nobody-here")))))
                .post("/api/v1/images")
                .then()
                .statusCode(400)
                .body("errors[0].field", equalTo("sharedWith.users"));
        as(owner)
                .body(Map.of("reference", "ghcr.io/org/x@sha256:abc", "tags", List.of()))
                .put("/api/v1/images/" + id)
                .then()
                .statusCode(400)
                .body("errors.field", hasItem("reference"))
                .body("errors.field", hasItem("tags"));
        as(owner).get("/api/v1/images?mine=true").then().body("items.size()", equalTo(before));
        as(owner)
                .get("/api/v1/images/" + id)
                .then()
                .body("tags", equalTo(List.of("2.3-cuda12.1", "gone")))
                .body("reference", startsWith("127.0.0.1:"));
        as(owner)
                .body(image("pytorch/pytorch", List.of("latest"), Map.of()))
                .post("/api/v1/images")
                .then()
                .statusCode(201)
                .body("reference", equalTo("docker.io/pytorch/pytorch"));
        as(owner)
                .body(image("pytorch/pytorch", List.of("2"), Map.of()))
                .post("/api/v1/images")
                .then()
                .statusCode(409)
                .body("code", equalTo("ImageExists"));
    }
}
