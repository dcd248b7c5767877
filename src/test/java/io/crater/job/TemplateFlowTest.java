package io.crater.job;

import static io.crater.Api.admin;
import static io.crater.Api.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.not;

import io.crater.Api;
import io.crater.CraterTestResource;
import io.crater.platform.Sql;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.VertxContextSupport;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Templates: built-in and saved, versions, sharing, rendering, submitting from them, saving a job as one. */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class TemplateFlowTest {

    static final String PW = "Templates-pass-2026";

    static Map<String, Object> echo(String name, String visibility, String account, String greeting) {
        return new java.util.HashMap<>(Map.of(
                "name",
                name,
                "description",
                "says hello",
                "visibility",
                visibility,
                "parameters",
                List.of(
                        Map.of("name", "greeting", "label", "Greeting", "type", "string", "default", greeting),
                        Map.of("name", "cpu", "label", "CPU", "type", "quantity", "default", "1")),
                "spec",
                Map.of(
                        "kind",
                        "custom",
                        "name",
                        "echo",
                        "image",
                        "busybox",
                        "command",
                        List.of("sh", "-c", "echo ${greeting} from $HOSTNAME"),
                        "resources",
                        Map.of("cpu", "${cpu}", "memory", "1Gi")))) {
            {
                if (account != null) {
                    put("account", account);
                }
            }
        };
    }

    static long jobs() throws Throwable {
        return VertxContextSupport.subscribeAndAwait(
                () -> Panache.withSession(() -> Sql.count("SELECT count(*) FROM jobs")));
    }

    @Test
    void builtInTemplatesRenderAndSubmitAndTheJobRecordsItsTemplateVersion() throws Throwable {
        String dana = Api.user("tpl.dana", PW);
        as(dana).get("/api/v1/templates")
                .then()
                .statusCode(200)
                .body(
                        "items.id",
                        hasItems(
                                "jupyter-pytorch",
                                "vscode",
                                "pytorch-ddp",
                                "llama-factory-sft",
                                "vllm-inference",
                                "batch"))
                .body("items.find { it.id == 'batch' }.builtin", equalTo(true))
                .body("items.find { it.id == 'batch' }.owner", equalTo(null));
        as(dana).get("/api/v1/templates/pytorch-ddp")
                .then()
                .statusCode(200)
                .body("kind", equalTo("pytorch"))
                .body("parameters.name", hasItems("script", "workers", "model"))
                .body("parameters.find { it.name == 'workers' }.default", equalTo("1"))
                .body("canEdit", equalTo(false));

        // The notebook's defaults fit a personal account's default quota (8 CPU, 32 GiB, no accelerator).
        as(dana).body(Map.of("parameters", Map.of()))
                .post("/api/v1/templates/jupyter-pytorch/render")
                .then()
                .statusCode(200)
                .body("spec.resources.cpu", equalTo("4"))
                .body("spec.resources.memory", equalTo("16Gi"))
                .body("spec.resources.accelerators", equalTo(0));
        as(dana).body(Map.of("template", Map.of("id", "jupyter-pytorch", "parameters", Map.of()), "name", "nb"))
                .post("/api/v1/jobs?dryRun=true")
                .then()
                .statusCode(200)
                .body("reasons.code", not(hasItem("AccountQuotaExceeded")))
                .body("decision", not(equalTo("REJECT")));

        // Rendering shows the spec and its YAML; the arguments are split like a shell would.
        as(dana).body(Map.of("parameters", Map.of("command", "python -c 'print(42)'", "cpu", "1")))
                .post("/api/v1/templates/batch/render")
                .then()
                .statusCode(200)
                .body("spec.command", equalTo(List.of("python", "-c", "print(42)")))
                .body("spec.template.id", equalTo("batch"))
                .body("yaml", containsString("kind: custom"));

        long before = jobs();
        // Wrong values are refused per parameter, and nothing is created.
        as(dana).body(Map.of("template", Map.of("id", "batch", "parameters", Map.of("cpu", "lots", "bogus", "1"))))
                .post("/api/v1/jobs")
                .then()
                .statusCode(400)
                .body("code", equalTo("InvalidParameters"))
                .body("errors.field", hasItems("parameters.cpu", "parameters.bogus", "parameters.command"));
        as(dana).body(Map.of("template", Map.of("id", "no-such-template", "parameters", Map.of())))
                .post("/api/v1/jobs")
                .then()
                .statusCode(404);
        assertThat(jobs()).isEqualTo(before);

        // Submitted from the template; a field given beside it wins over the rendered one.
        String id = as(dana).body(Map.of(
                        "name",
                        "answer",
                        "template",
                        Map.of(
                                "id",
                                "batch",
                                "parameters",
                                Map.of("command", "python -c 'print(42)'", "cpu", 1, "memory", "2Gi"))))
                .post("/api/v1/jobs")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        as(dana).get("/api/v1/jobs/" + id)
                .then()
                .statusCode(200)
                .body("job.name", equalTo("answer"))
                .body("template.id", equalTo("batch"))
                .body("template.version", equalTo(1))
                .body("template.name", equalTo("Batch job"))
                .body("spec.command", equalTo(List.of("python", "-c", "print(42)")))
                .body("spec.resources.memory", equalTo("2Gi"))
                .body("spec.timeLimit", equalTo("1d"))
                .body("spec.template.parameters.command", equalTo("python -c 'print(42)'"));
    }

    @Test
    void savedTemplatesAreVersionedSharedAsAskedAndOnlyTheirAuthorChangesThem() {
        String erin = Api.user("tpl.erin", PW);
        String fred = Api.user("tpl.fred", PW);
        String gina = Api.user("tpl.gina", PW);
        admin().body(Map.of("slug", "tpl-lab", "name", "Template Lab")).post("/api/v1/accounts");
        admin().body(Map.of("role", "member")).put("/api/v1/accounts/tpl-lab/members/tpl.erin");
        admin().body(Map.of("role", "member")).put("/api/v1/accounts/tpl-lab/members/tpl.fred");

        // Bad definitions are refused with the field at fault.
        Map<String, Object> bad = echo("bad", "private", null, "hi");
        bad.put("spec", Map.of("kind", "custom", "hostNetwork", true));
        as(erin).body(bad)
                .post("/api/v1/templates")
                .then()
                .statusCode(400)
                .body("code", equalTo("InvalidTemplate"))
                .body("errors.field", hasItem("spec.hostNetwork"));
        as(erin).body(echo("x", "account", null, "hi"))
                .post("/api/v1/templates")
                .then()
                .statusCode(400)
                .body("errors.field", hasItem("account"));
        as(gina).body(echo("x", "account", "tpl-lab", "hi"))
                .post("/api/v1/templates")
                .then()
                .statusCode(403)
                .body("code", equalTo("NotAMember"));

        String mine = as(erin).body(echo("mine", "private", null, "hi"))
                .post("/api/v1/templates")
                .then()
                .statusCode(201)
                .body("version", equalTo(1))
                .body("owner", equalTo("tpl.erin"))
                .body("canEdit", equalTo(true))
                .extract()
                .path("id");
        String shared = as(erin).body(echo("shared", "account", "tpl-lab", "hi"))
                .post("/api/v1/templates")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        // A private template is its author's; an account's is its members'.
        as(fred).get("/api/v1/templates/" + mine).then().statusCode(404);
        as(fred).get("/api/v1/templates/" + shared).then().statusCode(200).body("canEdit", equalTo(false));
        as(gina).get("/api/v1/templates/" + shared).then().statusCode(404);
        as(gina).get("/api/v1/templates").then().body("items.id", not(hasItem(shared)));
        as(fred).body(echo("shared", "account", "tpl-lab", "bye"))
                .put("/api/v1/templates/" + shared)
                .then()
                .statusCode(403)
                .body("code", equalTo("NotTemplateOwner"));
        as(erin).body(echo("b", "public", null, "x"))
                .put("/api/v1/templates/batch")
                .then()
                .statusCode(403)
                .body("code", equalTo("BuiltinTemplate"));

        // A job from version 1; version 2 changes the default; the job keeps version 1.
        String job = as(fred).header("X-Crater-Account", "tpl-lab")
                .body(Map.of("template", Map.of("id", shared, "parameters", Map.of())))
                .post("/api/v1/jobs")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        as(erin).body(echo("shared", "account", "tpl-lab", "bye"))
                .put("/api/v1/templates/" + shared)
                .then()
                .statusCode(200)
                .body("version", equalTo(2));
        // Saving the same content again makes no new version.
        as(erin).body(echo("shared", "account", "tpl-lab", "bye"))
                .put("/api/v1/templates/" + shared)
                .then()
                .statusCode(200)
                .body("version", equalTo(2));
        as(fred).get("/api/v1/templates/" + shared + "/versions")
                .then()
                .body("items.version", equalTo(List.of(2, 1)))
                .body("items.createdBy", equalTo(List.of("tpl.erin", "tpl.erin")));
        as(fred).get("/api/v1/templates/" + shared + "?version=1")
                .then()
                .body("parameters.find { it.name == 'greeting' }.default", equalTo("hi"));
        as(fred).get("/api/v1/jobs/" + job)
                .then()
                .body("template.version", equalTo(1))
                .body("spec.command[2]", equalTo("echo hi from $HOSTNAME"));

        // Save as template: the job's spec becomes a private template of the caller's.
        String copy = as(fred).body(Map.of("name", "fred's echo", "visibility", "private"))
                .post("/api/v1/jobs/" + job + "/template")
                .then()
                .statusCode(201)
                .body("owner", equalTo("tpl.fred"))
                .body("spec.command[2]", equalTo("echo hi from $HOSTNAME"))
                .body("spec.template", equalTo(null))
                .extract()
                .path("id");
        as(gina).body(Map.of("name", "x", "visibility", "private"))
                .post("/api/v1/jobs/" + job + "/template")
                .then()
                .statusCode(403);

        // Deleting hides it; the job keeps its link.
        as(fred).delete("/api/v1/templates/" + copy).then().statusCode(204);
        as(fred).get("/api/v1/templates/" + copy).then().statusCode(404);
        as(erin).delete("/api/v1/templates/" + shared).then().statusCode(204);
        as(fred).get("/api/v1/jobs/" + job).then().body("template.id", equalTo(shared));
    }

    @Test
    void jobsMayBeWrittenAsYaml() throws Throwable {
        String hank = Api.user("tpl.hank", PW);
        long before = jobs();
        as(hank).contentType("application/yaml")
                .body("name: [unclosed\nkind: custom\n".getBytes(StandardCharsets.UTF_8))
                .post("/api/v1/jobs")
                .then()
                .statusCode(400)
                .body("code", equalTo("InvalidYaml"));
        as(hank).contentType("application/yaml")
                .body("name: typo\nkind: custom\nimage: busybox\ncommand: [\"true\"]\nhostNetwork: true\n"
                        .getBytes(StandardCharsets.UTF_8))
                .post("/api/v1/jobs")
                .then()
                .statusCode(400)
                .body("code", equalTo("InvalidYaml"))
                .body("detail", containsString("hostNetwork"));
        assertThat(jobs()).isEqualTo(before);
        as(hank).contentType("application/yaml")
                .body(("name: from-yaml\nkind: custom\nimage: busybox\ncommand: [\"true\"]\n"
                                + "resources: {cpu: \"1\", memory: 1Gi}\n")
                        .getBytes(StandardCharsets.UTF_8))
                .post("/api/v1/jobs?dryRun=true")
                .then()
                .statusCode(200)
                .body("manifests", containsString("c-jdryrun0"));
        assertThat(jobs()).isEqualTo(before);
    }
}
