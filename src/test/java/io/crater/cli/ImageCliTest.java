package io.crater.cli;

import static io.crater.job.Flows.line;
import static org.assertj.core.api.Assertions.assertThat;

import io.crater.Api;
import io.crater.CraterTestResource;
import io.crater.RealRegistry;
import io.crater.job.Flows;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code crater image …} against the running server (the same boot as the other client tests) and real registries
 * (Debian's distribution 2.8.2): an image is added, checked tag by tag, shared with a user and an account and taken
 * back; the refusals of bad input and of other people's images end with their problem code and exit code; a locked
 * registry answers once a registry credential is stored, whose value nothing prints.
 */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class ImageCliTest {

    static final String PW = "ImageCli-pass-2026";
    static final String SECRET = "ic-registry-Pa55-word";

    @TestHTTPResource("/")
    URL base;

    /** Everything the client printed, to look for the registry password in. */
    final List<String> printed = new ArrayList<>();

    Cli as(String user) {
        return new Cli().server(base.toString()).token(Api.user(user, PW));
    }

    Cli.Run ok(Cli cli, String... args) {
        Cli.Run r = run(cli, args);
        assertThat(r.exit()).as(String.join(" ", args) + "\n" + r).isZero();
        return r;
    }

    Cli.Run run(Cli cli, String... args) {
        Cli.Run r = cli.run(args);
        printed.add(r.out() + r.err());
        return r;
    }

    @Test
    void imagesAreAddedCheckedSharedAndKeptFromOthers() throws Exception {
        Cli owner = as("ic-owner");
        Cli member = as("ic-member");
        Cli friend = as("ic-friend");
        Cli outsider = as("ic-outsider");
        Flows.account("ic-lab", List.of(line("cpu", "8", "8")), "ic-owner", "ic-member");
        try (RealRegistry open = RealRegistry.start(null, null);
                RealRegistry locked = RealRegistry.start("puller", SECRET)) {
            String digest = open.push("vision/trainer", "2.3-cuda12.1");
            String reference = open.host() + "/vision/trainer";
            Cli.Run add = ok(owner, "image", "add", reference, "--tag", "2.3-cuda12.1,gone", "--cuda", "12.1");
            String id = add.out().replaceAll("(?s).* as (im_[a-z0-9]+) .*", "$1");
            assertThat(add.out())
                    .isEqualTo("Added " + reference + " as " + id + " with tags 2.3-cuda12.1,gone; 'crater image check "
                            + id + "' asks its registry about them.\n");
            Object listed = ok(owner, "image", "list", "--mine", "-o", "json").json();
            assertThat(Values.text(listed, "items.0.id")).isEqualTo(id);
            assertThat(Values.text(listed, "items.0.cudaVersion")).isEqualTo("12.1");
            ok(
                    owner,
                    "image",
                    "update",
                    id,
                    "--arch",
                    "amd64,arm64",
                    "--vendor",
                    "NVIDIA",
                    "--kind",
                    "pytorch,jupyter");
            assertThat(ok(owner, "image", "list").out())
                    .startsWith("ID")
                    .containsPattern(id + "\\s+" + reference
                            + "\\s+2.3-cuda12.1,gone\\s+12.1\\s+nvidia\\s+jupyter,pytorch\\s+private\\s+ic-owner\\s+not"
                            + " checked");
            assertThat(Files.readString(owner.home().resolve(".cache/crater/names/images")))
                    .contains(id);

            checks(owner, id, reference, digest);
            sharing(owner, member, friend, outsider, id, reference);
            badInput(owner, open);
            lockedRegistry(owner, locked);

            Cli.Run gone = run(owner, "image", "delete", reference, "--yes");
            assertThat(gone.err()).isEqualTo("Deleted image " + reference + " from the catalogue.\n");
            assertThat(run(owner, "image", "get", id).exit()).isEqualTo(Exit.NOT_FOUND);
        }
        assertThat(printed).isNotEmpty().noneMatch(p -> p.contains(SECRET));
    }

    void checks(Cli owner, String id, String reference, String digest) {
        Cli.Run check = run(owner, "image", "check", id);
        assertThat(check.exit()).as(check.toString()).isEqualTo(Exit.ERROR);
        assertThat(check.out())
                .startsWith("TAG")
                .containsPattern("2.3-cuda12.1\\s+ok\\s+" + digest.replace(":", "\\:"))
                .containsPattern("gone\\s+not-found\\s+.*the registry has no manifest " + reference + ":gone");
        assertThat(check.err()).isEqualTo(reference + ": 1 of 2 tags ok.\n");
        ok(owner, "image", "update", reference, "--tags", "2.3-cuda12.1");
        Object json = ok(owner, "image", "check", id, "-o", "json").json();
        assertThat(Values.text(json, "checks.0.result")).isEqualTo("ok");
        assertThat(Values.text(json, "checks.0.digest")).isEqualTo(digest);
        assertThat(Values.list(Values.at(json, "checks"))).hasSize(1);
        assertThat(ok(owner, "image", "get", reference).out())
                .containsPattern("Reference:\\s+" + reference)
                .containsPattern("Vendors:\\s+nvidia")
                .containsPattern("2.3-cuda12.1\\s+ok\\s+sha256:");
        assertThat(ok(owner, "image", "list").out()).contains("1/1 ok");
    }

    void sharing(Cli owner, Cli member, Cli friend, Cli outsider, String id, String reference) {
        assertThat(run(member, "image", "get", id).exit()).isEqualTo(Exit.NOT_FOUND);
        assertThat(run(friend, "image", "get", reference).err())
                .contains("no image " + reference + " that you can see");
        assertThat(ok(owner, "image", "share", id, "--user", "ic-friend").out())
                .isEqualTo(reference + " is private; shared with users: ic-friend; accounts: -.\n");
        Object seen = ok(friend, "image", "get", id, "-o", "json").json();
        assertThat(Values.text(seen, "mayEdit")).isEqualTo("false");
        assertThat(Values.list(Values.at(seen, "sharedWith.users"))).isEmpty();
        Cli.Run notHers = run(friend, "image", "share", id, "--user", "ic-outsider");
        assertThat(notHers.exit()).isEqualTo(Exit.DENIED);
        assertThat(notHers.err()).contains("only the owner of " + reference);
        Cli.Run delete = run(friend, "image", "delete", id, "--yes");
        assertThat(delete.exit()).as(delete.toString()).isEqualTo(Exit.DENIED);
        assertThat(delete.err()).contains("(NotImageOwner)");

        ok(owner, "-a", "ic-lab", "image", "update", id, "--visibility", "account");
        assertThat(ok(member, "image", "list", "-o", "name").out()).contains(id);
        ok(owner, "image", "unshare", id, "--user", "ic-friend");
        assertThat(run(friend, "image", "get", id).exit()).isEqualTo(Exit.NOT_FOUND);
        assertThat(ok(outsider, "image", "list", "-o", "name").out()).doesNotContain(id);
        Cli.Run hidden = run(outsider, "image", "check", id);
        assertThat(hidden.exit()).as(hidden.toString()).isEqualTo(Exit.NOT_FOUND);
        assertThat(hidden.err()).contains("(NotFound)");
        ok(owner, "image", "update", id, "--visibility", "private");
        assertThat(run(member, "image", "get", id).exit()).isEqualTo(Exit.NOT_FOUND);
    }

    void badInput(Cli owner, RealRegistry open) {
        Cli.Run bad = run(owner, "image", "add", "Not A Reference!", "--tag", "v1");
        assertThat(bad.exit()).as(bad.toString()).isEqualTo(Exit.USAGE);
        assertThat(bad.err()).contains("(InvalidImage)", "reference: ");
        Cli.Run arch = run(owner, "image", "add", open.host() + "/other/env", "--tag", "v1", "--arch", "sparc");
        assertThat(arch.exit()).isEqualTo(Exit.USAGE);
        assertThat(arch.err()).contains("(InvalidImage)", "architectures: ");
        Cli.Run noTag = run(owner, "image", "add", open.host() + "/other/env");
        assertThat(noTag.exit()).isEqualTo(Exit.USAGE);
        assertThat(noTag.err()).contains("--tag");
        Cli.Run nothing = run(owner, "image", "share", open.host() + "/vision/trainer");
        assertThat(nothing.exit()).isEqualTo(Exit.USAGE);
        assertThat(Values.items(
                        ok(owner, "image", "list", "--mine", "-o", "json").json()))
                .hasSize(1);
    }

    void lockedRegistry(Cli owner, RealRegistry locked) throws Exception {
        String digest = locked.push("private/base", "v1");
        String id = ok(owner, "image", "add", locked.host() + "/private/base", "--tag", "v1", "-o", "name")
                .out()
                .strip();
        Cli.Run refused = run(owner, "image", "check", id);
        assertThat(refused.exit()).isEqualTo(Exit.ERROR);
        assertThat(refused.out()).containsPattern("v1\\s+unauthorized\\s+.*the registry asks for a login");
        Cli.Run stored = owner.runWithInput(
                SECRET + "\n",
                "credential",
                "set",
                "ic-reg",
                "--kind",
                "registry",
                "--host",
                locked.host(),
                "--username",
                "puller");
        printed.add(stored.out() + stored.err());
        assertThat(stored.exit()).as(stored.toString()).isZero();
        Cli.Run passed = run(owner, "image", "check", id);
        assertThat(passed.exit()).as(passed.toString()).isZero();
        assertThat(passed.out()).containsPattern("v1\\s+ok\\s+" + digest.replace(":", "\\:"));
        ok(owner, "image", "delete", id, "--yes");
    }

    @Test
    void imagesAreBuiltFromTheCli() throws Exception {
        String token = Api.user("ic-builder", PW);
        Cli cli = new Cli().server(base.toString()).token(token);
        Flows.account("ic-build", List.of(line("cpu", "16", "16"), line("memory", "64Gi", "64Gi")), "ic-builder");
        try (RealRegistry registry = RealRegistry.start("pusher", SECRET)) {
            Api.as(token)
                    .body(Map.of(
                            "name",
                            "reg",
                            "kind",
                            "registry",
                            "host",
                            registry.host(),
                            "username",
                            "pusher",
                            "value",
                            SECRET))
                    .post("/api/v1/me/credentials")
                    .then()
                    .statusCode(201);
            String dest = registry.host() + "/cli/tool:1";
            Cli.Run bad = run(
                    cli,
                    "-a",
                    "ic-build",
                    "image",
                    "build",
                    "--base",
                    "debian:12",
                    "--pip",
                    "evil;rm",
                    "--destination",
                    dest,
                    "--credential",
                    "reg");
            assertThat(bad.exit()).as("%s", bad).isEqualTo(2);
            assertThat(bad.err()).contains("(InvalidImageBuild)").contains("pip[0]");

            Path dockerfile = Files.createTempFile("crater-cli", ".Dockerfile");
            Files.writeString(dockerfile, "FROM debian:12\nRUN echo cli\n");
            Cli.Run built = ok(
                    cli,
                    "-a",
                    "ic-build",
                    "image",
                    "build",
                    "--dockerfile",
                    dockerfile.toString(),
                    "--destination",
                    dest,
                    "--credential",
                    "reg",
                    "--follow");
            Files.delete(dockerfile);
            assertThat(built.err()).containsPattern("Build ib_[a-z0-9]+ of " + dest + " started as job ");
            assertThat(built.out()).contains("pushing manifest for " + dest + "@sha256:");
            org.awaitility.Awaitility.await()
                    .atMost(java.time.Duration.ofSeconds(30))
                    .until(() -> ok(cli, "image", "builds").out().contains("succeeded"));
            assertThat(ok(cli, "image", "builds").out())
                    .containsPattern("ib_[a-z0-9]+\\s+" + java.util.regex.Pattern.quote(dest) + "\\s+succeeded");
        }
        assertThat(printed).noneMatch(p -> p.contains(SECRET));
    }
}
