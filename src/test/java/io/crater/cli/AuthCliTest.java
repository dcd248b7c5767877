package io.crater.cli;

import static io.crater.Api.as;
import static org.assertj.core.api.Assertions.assertThat;

import io.crater.Api;
import io.crater.CraterTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Signing in and out, contexts and accounts through the client, against the running server. */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class AuthCliTest {

    static final String PW = "Cli-auth-pass-2026";

    @TestHTTPResource("/")
    URL base;

    String server() {
        return base.toString().replaceAll("/+$", "");
    }

    @Test
    void loginKeepsATokenNotThePasswordAndLogoutRevokesIt() throws Exception {
        Api.user("clia-ann", PW);
        Cli cli = new Cli();
        Cli.Run login = cli.runWithInput(PW + "\n", "login", server(), "-u", "clia-ann", "--password-stdin");
        assertThat(login.exit()).as(login.toString()).isZero();
        assertThat(login.err()).contains("Signed in to " + server() + " as clia-ann");

        Path file = cli.home().resolve(".config/crater/config.yaml");
        assertThat(Files.getPosixFilePermissions(file))
                .containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
        String yaml = Files.readString(file);
        assertThat(yaml).contains("token: crt_").contains("user: clia-ann").doesNotContain(PW);
        String token = yaml.lines()
                .filter(l -> l.strip().startsWith("token: "))
                .findFirst()
                .orElseThrow()
                .strip()
                .substring(7);
        assertThat(as(token).get("/api/v1/me").then().extract().statusCode()).isEqualTo(200);

        Cli.Run who = cli.run("whoami", "-o", "json");
        assertThat(who.exit()).as(who.toString()).isZero();
        Map<?, ?> me = (Map<?, ?>) who.json();
        assertThat(me.get("username")).isEqualTo("clia-ann");
        assertThat(me.get("account")).isEqualTo("u-clia-ann");
        assertThat(me.get("server")).isEqualTo(server());
        assertThat(cli.run("whoami").out()).startsWith("clia-ann (clia-ann), role user, on " + server());

        Cli.Run logout = cli.run("logout");
        assertThat(logout.exit()).as(logout.toString()).isZero();
        assertThat(as(token).get("/api/v1/me").then().extract().statusCode())
                .as("the token is revoked on the server")
                .isEqualTo(401);
        assertThat(Files.readString(file)).doesNotContain("crt_");
        Cli.Run after = cli.run("whoami");
        assertThat(after.exit()).isEqualTo(Exit.DENIED);
        assertThat(after.err()).contains("Not signed in: run 'crater login SERVER'");
    }

    @Test
    void aWrongPasswordIsDeniedAndWritesNothing() {
        Api.user("clia-bob", PW);
        Cli cli = new Cli();
        Cli.Run r = cli.runWithInput("wrong\n", "login", server(), "-u", "clia-bob", "--password-stdin");
        assertThat(r.exit()).isEqualTo(Exit.DENIED);
        assertThat(r.err()).contains("InvalidCredentials");
        assertThat(cli.home().resolve(".config/crater/config.yaml")).doesNotExist();

        Cli.Run noUser = cli.run("login", server());
        assertThat(noUser.exit()).isEqualTo(Exit.USAGE);
        assertThat(noUser.err()).contains("-u USER");
        Cli.Run badUrl = cli.run("login", "ftp://x", "-u", "a", "--password-stdin");
        assertThat(badUrl.exit()).isEqualTo(Exit.USAGE);
        assertThat(badUrl.err()).contains("is not a server URL");
    }

    @Test
    void aServerThatIsDownIsNamedAndExitsOne() throws Exception {
        int closed;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        Cli.Run r =
                new Cli().server("http://127.0.0.1:" + closed).token("crt_x").run("whoami");
        assertThat(r.exit()).isEqualTo(Exit.ERROR);
        assertThat(r.err()).contains("cannot reach http://127.0.0.1:" + closed);
        Cli.Run zh = new Cli()
                .server("http://127.0.0.1:" + closed)
                .token("crt_x")
                .env("LANG", "zh_CN.UTF-8")
                .run("whoami");
        assertThat(zh.err()).contains("无法连接 http://127.0.0.1:" + closed);
    }

    @Test
    void contextsAndAccountsAreChosenAndKept() {
        String token = Api.user("clia-cat", PW);
        io.crater.job.Flows.account("clia-lab", List.of(), "clia-cat");
        Cli cli = new Cli();
        Cli.Run add = cli.runWithInput(token + "\n", "context", "add", "lab", "--server", server(), "--token", "-");
        assertThat(add.exit()).as(add.toString()).isZero();
        Cli.Run list = cli.run("context", "list");
        assertThat(list.out())
                .containsPattern("\\*\\s+lab\\s+" + java.util.regex.Pattern.quote(server()) + "\\s+clia-cat");

        Cli.Run accounts = cli.run("account", "list", "-o", "name");
        assertThat(accounts.out().lines().toList()).containsExactlyInAnyOrder("u-clia-cat", "clia-lab");
        assertThat(cli.run("account", "use", "nope").exit()).isEqualTo(Exit.NOT_FOUND);
        Cli.Run use = cli.run("account", "use", "clia-lab");
        assertThat(use.exit()).as(use.toString()).isZero();
        assertThat(cli.run("account", "current", "-o", "jsonpath={.slug}").out())
                .isEqualTo("clia-lab\n");
        assertThat(cli.run("-a", "u-clia-cat", "account", "current", "-o", "jsonpath={.slug}")
                        .out())
                .isEqualTo("u-clia-cat\n");
        assertThat(cli.env("LANG", "zh_CN.UTF-8").run("account", "list").out()).startsWith("当前");

        assertThat(cli.run("context", "use", "elsewhere").exit()).isEqualTo(Exit.NOT_FOUND);
        assertThat(cli.run("context", "delete", "lab").exit()).isZero();
        assertThat(cli.run("account", "list").exit()).isEqualTo(Exit.DENIED);
    }

    @Test
    void credentialsAreSetFromStandardInputAndJobFilesReferenceThem() throws Exception {
        String token = Api.user("clia-cora", PW);
        Cli cli = new Cli().server(server()).token(token);
        String value = "hf_cli_" + System.nanoTime();
        Cli.Run stored = cli.runWithInput(value + "\n", "credential", "set", "hf", "--kind", "huggingface");
        assertThat(stored.exit()).as(stored.toString()).isZero();
        assertThat(stored.err()).contains("Stored credential hf");
        Cli.Run replaced = cli.runWithInput(value + "-2\n", "credential", "set", "hf");
        assertThat(replaced.err()).contains("Replaced the value of credential hf");
        assertThat(cli.runWithInput("x", "credential", "set", "hf", "--kind", "wandb")
                        .exit())
                .isEqualTo(Exit.USAGE);
        assertThat(cli.runWithInput("", "credential", "set", "empty").exit()).isEqualTo(Exit.USAGE);
        Cli.Run list = cli.run("credential", "list", "-o", "json");
        List<?> items = (List<?>) ((Map<?, ?>) list.json()).get("items");
        assertThat(items).hasSize(1);
        Map<?, ?> hf = (Map<?, ?>) items.get(0);
        assertThat(hf.get("name")).isEqualTo("hf");
        assertThat(hf.get("kind")).isEqualTo("huggingface");
        assertThat(hf.containsKey("value")).isFalse();
        assertThat(list.out()).doesNotContain(value);
        assertThat(cli.run("credential", "list").out()).contains("hf").contains("huggingface");

        Path spec = cli.home().resolve("job.yaml");
        Files.writeString(
                spec,
                "name: cli-hf\nkind: custom\nimage: python:3.12\ncommand: [python, train.py]\n"
                        + "env:\n  HF_TOKEN: {credential: hf}\nresources: {cpu: '1', memory: 2Gi}\n");
        Cli.Run dry = cli.run("job", "submit", "-f", spec.toString(), "--dry-run", "-o", "yaml");
        assertThat(dry.exit()).as(dry.toString()).isZero();
        assertThat(dry.out()).contains("secretKeyRef").doesNotContain(value);
        Files.writeString(spec, Files.readString(spec).replace("credential: hf", "credential: nope"));
        Cli.Run unknown = cli.run("job", "submit", "-f", spec.toString(), "--dry-run");
        assertThat(unknown.exit()).isNotZero();
        assertThat(unknown.err()).contains("env.HF_TOKEN").contains("you have no credential named 'nope'");

        assertThat(cli.run("credential", "delete", "hf", "--yes").exit()).isZero();
        assertThat((List<?>)
                        ((Map<?, ?>) cli.run("credential", "list", "-o", "json").json()).get("items"))
                .isEmpty();
    }

    @Test
    void sshKeysAndTokensAreOnesOwn() throws Exception {
        String token = Api.user("clia-dan", PW);
        Cli cli = new Cli().server(server()).token(token);
        Path ssh = cli.home().resolve(".ssh");
        Files.createDirectories(ssh);
        Process keygen = new ProcessBuilder(
                        "ssh-keygen",
                        "-q",
                        "-t",
                        "ed25519",
                        "-N",
                        "",
                        "-C",
                        "dan@laptop",
                        "-f",
                        ssh.resolve("id_ed25519").toString())
                .redirectErrorStream(true)
                .start();
        assertThat(keygen.waitFor()).isZero();

        assertThat(cli.run("ssh-key", "add", ssh.resolve("id_ed25519").toString())
                        .err())
                .contains("looks like a private key");
        Cli.Run add = cli.run("ssh-key", "add");
        assertThat(add.exit()).as(add.toString()).isZero();
        assertThat(add.err()).contains("Registered key SHA256:").contains("(dan@laptop)");
        Cli.Run list = cli.run("ssh-key", "list", "-o", "json");
        List<?> keys = (List<?>) ((Map<?, ?>) list.json()).get("items");
        assertThat(keys).hasSize(1);
        Object id = ((Map<?, ?>) keys.get(0)).get("id");
        assertThat(cli.run("ssh-key", "list").out()).contains("dan@laptop").contains("ssh-ed25519");
        Cli.Run bad = cli.runWithInput("ssh-rsa AAAA not-a-key\n", "ssh-key", "add", "-");
        assertThat(bad.exit()).isEqualTo(Exit.USAGE);

        Cli.Run refused = cli.run("ssh-key", "remove", id.toString());
        assertThat(refused.exit()).isEqualTo(Exit.USAGE);
        assertThat(refused.err()).contains("add --yes to confirm");
        assertThat(cli.run("ssh-key", "list", "-o", "name").out().strip()).isEqualTo(id.toString());
        assertThat(cli.run("ssh-key", "remove", id.toString(), "--yes").exit()).isZero();
        assertThat(cli.run("ssh-key", "list", "-o", "name").out()).isEmpty();

        Cli.Run created = cli.run("token", "create", "ci", "--expires", "30d");
        assertThat(created.exit()).as(created.toString()).isZero();
        String secret = created.out().strip();
        assertThat(secret).startsWith("crt_");
        assertThat(as(secret).get("/api/v1/me").then().extract().statusCode()).isEqualTo(200);
        Cli.Run tokens = cli.run("token", "list");
        assertThat(tokens.out())
                .contains("ci")
                .contains(secret.substring(0, 12))
                .doesNotContain(secret);
        String tokenId = cli.run("token", "list", "-o", "jsonpath={.items[?(@.name==\"ci\")].id}")
                .out()
                .strip();
        assertThat(cli.run("token", "revoke", tokenId, "-y").exit()).isZero();
        assertThat(as(secret).get("/api/v1/me").then().extract().statusCode()).isEqualTo(401);
        assertThat(cli.run("token", "create", "x", "--expires", "soon").exit()).isEqualTo(Exit.USAGE);
    }

    @Test
    void theServerSaysWhereTheClientComesFrom() {
        var info = as(io.crater.TestAuth.adminToken()).get("/api/v1/cli").then().statusCode(200);
        info.body("available", org.hamcrest.Matchers.equalTo(false))
                .body("login", org.hamcrest.Matchers.equalTo("crater login " + server()));
        io.restassured.RestAssured.given()
                .header("Host", "x';touch${IFS}owned;'")
                .get("/api/v1/cli")
                .then()
                .statusCode(400);
        io.restassured.RestAssured.given()
                .get("/cli/crater.jar")
                .then()
                .statusCode(404)
                .contentType("application/problem+json")
                .body("detail", org.hamcrest.Matchers.containsString("without the command-line client"));
        assertThat(io.restassured.RestAssured.given()
                        .get("/cli/crater-cli")
                        .then()
                        .statusCode(200)
                        .extract()
                        .asString())
                .contains("SharedClassListFile");
    }

    /** The user code and complete URL the client prints for the person, once it has printed them. */
    static java.util.regex.Matcher deviceCode(Cli.Running running) throws InterruptedException {
        java.util.regex.Pattern code =
                java.util.regex.Pattern.compile("\\s([B-Z]{4}-[B-Z]{4})\\s[\\s\\S]*?(http\\S+\\?code=\\S+?) directly");
        for (int i = 0; i < 200; i++) {
            java.util.regex.Matcher m = code.matcher(running.errSoFar());
            if (m.find()) {
                return m;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the client printed no code: " + running.errSoFar());
    }

    @Test
    void loginWithDeviceIsApprovedInTheBrowserAndTheTokenWorks() throws Exception {
        String dan = Api.user("clia-dan", PW);
        Cli cli = new Cli();
        Cli.Running login = cli.start("login", server(), "--device");
        java.util.regex.Matcher printed = deviceCode(login);
        String userCode = printed.group(1);
        assertThat(login.errSoFar()).contains(server() + "/device ");
        assertThat(printed.group(2)).isEqualTo(server() + "/device?code=" + userCode);
        as(dan).get("/api/v1/auth/device/" + userCode)
                .then()
                .statusCode(200)
                .body("clientName", org.hamcrest.Matchers.startsWith("crater CLI on "));
        as(dan).post("/api/v1/auth/device/" + userCode + "/approve").then().statusCode(204);

        Cli.Run done = login.await(java.time.Duration.ofSeconds(60));
        assertThat(done.exit()).as(done.toString()).isZero();
        assertThat(done.err()).contains("Signed in to " + server() + " as clia-dan");
        String yaml = Files.readString(cli.home().resolve(".config/crater/config.yaml"));
        assertThat(yaml).contains("token: crt_").contains("user: clia-dan").contains("token-id: ");

        Cli.Run who = cli.run("whoami", "-o", "json");
        assertThat(who.exit()).as(who.toString()).isZero();
        assertThat(((Map<?, ?>) who.json()).get("username")).isEqualTo("clia-dan");
        Cli.Run logout = cli.run("logout");
        assertThat(logout.exit()).as(logout.toString()).isZero();
        assertThat(as(dan).get("/api/v1/me/tokens").then().extract().<List<?>>path("items"))
                .as("logout revoked the token the device sign-in made")
                .isEmpty();
    }

    @Test
    void loginWithDeviceFailsClearlyWhenDenied() throws Exception {
        String eve = Api.user("clia-eve", PW);
        Cli cli = new Cli();
        Cli.Running login = cli.start("login", server(), "--device");
        as(eve).post("/api/v1/auth/device/" + deviceCode(login).group(1) + "/deny")
                .then()
                .statusCode(204);
        Cli.Run done = login.await(java.time.Duration.ofSeconds(60));
        assertThat(done.exit()).isEqualTo(Exit.DENIED);
        assertThat(done.err()).contains("The sign-in was denied in the browser");
        assertThat(cli.home().resolve(".config/crater/config.yaml")).doesNotExist();

        Cli.Run mixed = cli.run("login", server(), "--device", "-u", "clia-eve");
        assertThat(mixed.exit()).isEqualTo(Exit.USAGE);
        assertThat(mixed.err()).contains("--device signs in through the browser");
    }
}
