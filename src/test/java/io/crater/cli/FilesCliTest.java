package io.crater.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.crater.Api;
import io.crater.CraterTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.ByteArrayInputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code crater files …} against the running server: bytes both ways, moves, the trash, refusals and exit codes; and
 * {@code crater dataset|model …}, which register places of those spaces.
 */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class FilesCliTest {

    static final String PW = "FilesCli-pass-2026";

    @TestHTTPResource("/")
    URL base;

    @TempDir
    Path dir;

    Cli cli;

    @BeforeEach
    void signIn() {
        String token = Api.user("fc.user", PW);
        for (String slug : List.of("fc-lab", "fc-ro", "fc-quota")) {
            Api.admin().body(Map.of("slug", slug, "name", slug)).post("/api/v1/accounts");
        }
        member("fc-lab", "rw");
        member("fc-ro", "ro");
        member("fc-quota", "rw");
        cli = new Cli().server(base.toString()).token(token);
    }

    static void member(String account, String access) {
        Api.admin()
                .body(Map.of("role", "member", "fileAccess", access))
                .put("/api/v1/accounts/" + account + "/members/fc.user")
                .then()
                .statusCode(200);
    }

    Cli.Run ok(String... args) {
        Cli.Run r = cli.run(args);
        assertThat(r.exit()).as(String.join(" ", args) + "\n" + r).isZero();
        return r;
    }

    static Path accountSpace(String slug) {
        return CraterTestResource.home().resolve("spaces/accounts/" + slug);
    }

    @Test
    void aFileGoesUpComesBackIdenticalMovesCopiesAndReturnsFromTheTrash() throws Exception {
        byte[] bytes = new byte[300 * 1024 + 7];
        new Random(42).nextBytes(bytes);
        Path blob = Files.write(dir.resolve("blob.bin"), bytes);
        ok("files", "mkdir", "user:/fc-trip");
        assertThat(ok("files", "put", blob.toString(), "user:/fc-trip/").out())
                .isEqualTo("uploaded user:/fc-trip/blob.bin (300.0 KiB)\n");
        Cli.Run again = cli.run("files", "put", blob.toString(), "user:/fc-trip/blob.bin");
        assertThat(again.exit()).isEqualTo(Exit.ERROR);
        assertThat(again.err()).contains("already exists", "(AlreadyExists)");
        ok("files", "put", "--overwrite", blob.toString(), "user:/fc-trip/blob.bin");

        Cli.Run ls = ok("files", "ls", "user:/fc-trip");
        assertThat(ls.out())
                .startsWith("NAME")
                .contains("SIZE", "MODIFIED")
                .containsPattern("blob.bin\\s+file\\s+300.0 KiB");
        assertThat(Values.text(ok("files", "ls", "user:/fc-trip", "-o", "json").json(), "items.0.size"))
                .isEqualTo(String.valueOf(bytes.length));

        Path back = dir.resolve("back.bin");
        assertThat(ok("files", "get", "user:/fc-trip/blob.bin", back.toString()).out())
                .contains("Downloaded user:/fc-trip/blob.bin to " + back);
        assertThat(Files.readAllBytes(back)).isEqualTo(bytes);
        Cli.Run exists = cli.run("files", "get", "user:/fc-trip/blob.bin", back.toString());
        assertThat(exists.exit()).isEqualTo(Exit.ERROR);
        assertThat(exists.err()).contains("exists: add --overwrite");

        assertThat(ok("files", "mv", "user:/fc-trip/blob.bin", "user:/fc-trip/moved.bin")
                        .out())
                .isEqualTo("Moved user:/fc-trip/blob.bin to user:/fc-trip/moved.bin.\n");
        assertThat(ok("files", "cp", "user:/fc-trip/moved.bin", "account:fc-lab:/")
                        .out())
                .isEqualTo("Copied user:/fc-trip/moved.bin to account:fc-lab:/moved.bin.\n");
        assertThat(Files.readAllBytes(accountSpace("fc-lab").resolve("moved.bin")))
                .isEqualTo(bytes);
        assertThat(ok("files", "ls", "user:/fc-trip", "-o", "name").out()).isEqualTo("moved.bin\n");

        Cli.Run rm = ok("files", "rm", "user:/fc-trip/moved.bin");
        String id = rm.out().replaceAll("(?s).*\\(id (\\d+)\\).*", "$1");
        assertThat(rm.out())
                .containsPattern("Moved user:/fc-trip/moved.bin to the trash of user \\(id \\d+\\); 'crater files"
                        + " restore user " + id + "' brings it back until \\d{4}-\\d{2}-\\d{2}T");
        assertThat(ok("files", "ls", "user:/fc-trip", "-o", "name").out()).isEmpty();
        assertThat(ok("files", "trash", "user").out())
                .containsPattern(id + "\\s+/fc-trip/moved.bin\\s+file\\s+300.0 KiB");
        assertThat(ok("files", "restore", "user", id).out()).isEqualTo("Restored user:/fc-trip/moved.bin.\n");
        ok("files", "get", "user:/fc-trip/moved.bin", back.toString(), "--overwrite");
        assertThat(Files.readAllBytes(back)).isEqualTo(bytes);
        Cli.Run twice = cli.run("files", "restore", "user", id);
        assertThat(twice.exit()).isEqualTo(Exit.NOT_FOUND);

        Cli.Run folder = cli.run("files", "get", "user:/fc-trip", dir.toString());
        assertThat(folder.exit()).isEqualTo(Exit.USAGE);
        assertThat(folder.err()).contains("user:/fc-trip is a folder: add --zip");
        ok("files", "get", "--zip", "user:/fc-trip", dir.toString());
        assertThat(zipNames(Files.readAllBytes(dir.resolve("fc-trip.zip")))).containsExactly("moved.bin");

        Cli.Run notEmpty = cli.run("files", "rm", "user:/fc-trip");
        assertThat(notEmpty.exit()).isEqualTo(Exit.ERROR);
        assertThat(notEmpty.err()).contains("(FolderNotEmpty)");
        ok("files", "rm", "-r", "user:/fc-trip");
        assertThat(cli.run("files", "ls", "user:/fc-trip").exit()).isEqualTo(Exit.NOT_FOUND);
    }

    @Test
    void aFolderGoesUpWithItsTreeAndEachFileIsReported() throws Exception {
        Path tree = Files.createDirectories(dir.resolve("tree/sub/deeper"));
        Files.writeString(dir.resolve("tree/a.txt"), "alpha");
        Files.writeString(dir.resolve("tree/sub/b.txt"), "beta");
        Files.write(dir.resolve("tree/sub/deeper/c.bin"), new byte[2048]);
        Files.createDirectories(dir.resolve("tree/empty"));
        Files.createSymbolicLink(dir.resolve("tree/link"), Path.of("/etc/passwd"));
        Path src = dir.resolve("tree");

        Cli.Run r = ok("files", "put", "-r", src.toString(), "account:fc-lab:/fc-up/");
        assertThat(r.out())
                .isEqualTo("uploaded account:fc-lab:/fc-up/tree/a.txt (5 B)\n"
                        + "skipped " + src.resolve("link") + ": neither a file nor a folder (a link?)\n"
                        + "uploaded account:fc-lab:/fc-up/tree/sub/b.txt (4 B)\n"
                        + "uploaded account:fc-lab:/fc-up/tree/sub/deeper/c.bin (2.0 KiB)\n");
        assertThat(r.err()).isEqualTo("3 uploaded, 0 failed, 1 skipped.\n");
        Path landed = accountSpace("fc-lab").resolve("fc-up/tree");
        assertThat(Files.readString(landed.resolve("sub/b.txt"))).isEqualTo("beta");
        assertThat(Files.size(landed.resolve("sub/deeper/c.bin"))).isEqualTo(2048);
        assertThat(Files.isDirectory(landed.resolve("empty"))).isTrue();
        assertThat(Files.exists(landed.resolve("link"))).isFalse();

        Cli.Run again = cli.run("files", "put", "-r", src.toString(), "account:fc-lab:/fc-up/tree");
        assertThat(again.exit()).isEqualTo(Exit.ERROR);
        assertThat(again.out()).contains("failed account:fc-lab:/fc-up/tree/sub/b.txt: ", "(AlreadyExists)");
        assertThat(again.err()).isEqualTo("0 uploaded, 3 failed, 1 skipped.\n");
        Cli.Run plain = cli.run("files", "put", src.toString(), "user:/");
        assertThat(plain.exit()).isEqualTo(Exit.USAGE);
        assertThat(plain.err()).contains("is a folder: add -r");
    }

    @Test
    void refusalsShowTheirReasonAndNumbers() throws Exception {
        Path small = Files.write(dir.resolve("small.bin"), new byte[600]);
        // Far more than the socket buffers hold: the refusal must come before the body, or its words are lost.
        Path big = Files.write(dir.resolve("big.bin"), new byte[8 << 20]);
        Cli.Run readOnly = cli.run("files", "put", small.toString(), "account:fc-ro:/");
        assertThat(readOnly.exit()).as(readOnly.toString()).isEqualTo(Exit.DENIED);
        assertThat(readOnly.err()).contains("(ReadOnlySpace)");
        assertThat(Files.exists(accountSpace("fc-ro").resolve("small.bin"))).isFalse();

        Api.admin()
                .body(Map.of("maxBytes", 1000, "maxFiles", 10))
                .put("/api/v1/spaces/account:fc-quota/quota")
                .then()
                .statusCode(200);
        ok("files", "put", "--overwrite", small.toString(), "account:fc-quota:/");
        Cli.Run over = cli.run("files", "put", big.toString(), "account:fc-quota:/");
        assertThat(over.exit()).as(over.toString()).isEqualTo(Exit.ERROR);
        assertThat(over.err()).contains("[FileQuotaExceeded]", "600", String.valueOf(8 << 20), "1000");
        assertThat(Files.exists(accountSpace("fc-quota").resolve("big.bin"))).isFalse();
        assertThat(ok("files", "spaces").out())
                .containsPattern("account:fc-quota\\s+rw\\s+600 B\\s+1000 B\\s+1\\s+10")
                .containsPattern("public\\s+ro\\s+");

        Cli.Run hidden = cli.run("files", "ls", "account:fc-nobody:/");
        assertThat(hidden.exit()).isEqualTo(Exit.NOT_FOUND);
        Cli.Run bad = cli.run("files", "ls", "/data");
        assertThat(bad.exit()).isEqualTo(Exit.USAGE);
        assertThat(bad.err()).contains("write SPACE:/PATH");
    }

    @Test
    void datasetsAndModelsNameAPlaceOfASpaceAndAreSeenOnlyByThoseTheyAreSharedWith() throws Exception {
        Files.write(dir.resolve("part-0.bin"), new byte[1000]);
        ok("files", "mkdir", "user:/fc-imagenet");
        ok("files", "put", dir.resolve("part-0.bin").toString(), "user:/fc-imagenet/");
        Cli.Run made =
                ok("dataset", "create", "fc-imagenet", "user:/fc-imagenet", "--tag", "vision", "--licence", "CC0");
        String id = made.out().replaceAll("(?s).* as (ds_[a-z0-9]+) .*", "$1");
        assertThat(made.out())
                .startsWith("Registered dataset fc-imagenet as ds_")
                .contains("(1000 B in 2 files)");
        assertThat(ok("dataset", "list").out())
                .startsWith("ID")
                .containsPattern(id + "\\s+fc-imagenet\\s+fc.user\\s+1000 B\\s+private\\s+vision");
        Object json = ok("dataset", "list", "--mine", "-o", "json").json();
        assertThat(Values.text(json, "items.0.id")).isEqualTo(id);
        assertThat(Values.text(json, "items.0.sizeBytes")).isEqualTo("1000");
        assertThat(Values.text(json, "items.0.path")).isEqualTo("/fc-imagenet");
        assertThat(Files.readString(cli.home().resolve(".cache/crater/names/datasets")))
                .contains(id);
        assertThat(ok("model", "list", "-o", "name").out()).doesNotContain(id);
        assertThat(ok("dataset", "get", "fc-imagenet").out())
                .containsPattern("ID:\\s+" + id)
                .containsPattern("Place:\\s+user:[a-z.-]+:/fc-imagenet \\(folder\\)")
                .containsPattern("Licence:\\s+CC0");

        Cli.Run bad = cli.run("dataset", "create", "Not A Name", "user:/fc-imagenet", "--tag", "Bad Tag!");
        assertThat(bad.exit()).as(bad.toString()).isEqualTo(Exit.USAGE);
        assertThat(bad.err()).contains("(InvalidAsset)", "name: ", "tags");
        Cli.Run gone = cli.run("dataset", "create", "fc-nothing", "user:/fc-not-there");
        assertThat(gone.exit()).as(gone.toString()).isEqualTo(Exit.USAGE);
        assertThat(gone.err()).contains("(InvalidAsset)", "path: ");
        assertThat(Values.items(ok("dataset", "list", "--mine", "-o", "json").json()))
                .hasSize(1);

        Api.user("fc.member", PW);
        Api.admin().body(Map.of("role", "member")).put("/api/v1/accounts/fc-lab/members/fc.member");
        Cli member = new Cli().server(base.toString()).token(Api.login("fc.member", PW));
        Cli outsider = new Cli().server(base.toString()).token(Api.user("fc.outsider", PW));
        assertThat(member.run("dataset", "get", id).exit()).isEqualTo(Exit.NOT_FOUND);
        assertThat(ok("dataset", "share", "fc-imagenet", "--with-account", "fc-lab")
                        .out())
                .isEqualTo("dataset fc-imagenet is now account (fc-lab).\n");
        Cli.Run seen = member.run("dataset", "get", "fc.user/fc-imagenet", "-o", "json");
        assertThat(Values.text(seen.json(), "visibility")).isEqualTo("account");
        assertThat(Values.text(seen.json(), "mayEdit")).isEqualTo("false");
        Cli.Run notHis = member.run("dataset", "update", id, "--description", "mine now");
        assertThat(notHis.exit()).as(notHis.toString()).isEqualTo(Exit.DENIED);
        assertThat(notHis.err()).contains("(NotAssetOwner)");
        Cli.Run hidden = outsider.run("dataset", "get", id);
        assertThat(hidden.exit()).as(hidden.toString()).isEqualTo(Exit.NOT_FOUND);
        assertThat(outsider.run("dataset", "get", "fc-imagenet").err())
                .contains("no dataset fc-imagenet that you can see");
        assertThat(outsider.run("dataset", "list", "-o", "name").out()).doesNotContain(id);
        assertThat(outsider.run("dataset", "delete", id, "--yes").exit()).isEqualTo(Exit.NOT_FOUND);

        Files.write(dir.resolve("part-1.bin"), new byte[24]);
        ok("files", "put", dir.resolve("part-1.bin").toString(), "user:/fc-imagenet/");
        assertThat(ok("dataset", "refresh", id).out())
                .isEqualTo("Measured dataset fc-imagenet again: 1.0 KiB in 3 files.\n");
        assertThat(ok("dataset", "update", id, "--tags", "images,vision", "-o", "json")
                        .json())
                .extracting(o -> Values.at(o, "tags"))
                .isEqualTo(List.of("images", "vision"));
        assertThat(ok("dataset", "unshare", id).out()).isEqualTo("dataset fc-imagenet is now private.\n");
        assertThat(member.run("dataset", "get", id).exit()).isEqualTo(Exit.NOT_FOUND);

        String model = ok("model", "create", "fc-weights", "user:/fc-imagenet/part-0.bin", "-o", "name")
                .out()
                .strip();
        assertThat(model).startsWith("md_");
        assertThat(ok("model", "get", "fc-weights").out())
                .containsPattern("Place:.*/fc-imagenet/part-0.bin \\(file\\)");
        assertThat(ok("dataset", "list", "-o", "name").out()).doesNotContain(model);

        Cli.Run unasked = cli.run("dataset", "delete", id);
        assertThat(unasked.exit()).isEqualTo(Exit.USAGE);
        assertThat(unasked.err()).contains("add --yes");
        assertThat(ok("dataset", "delete", "fc-imagenet", "--yes").err())
                .isEqualTo("Deleted dataset fc-imagenet from the catalogue; its files are where they were.\n");
        assertThat(cli.run("dataset", "get", id).exit()).isEqualTo(Exit.NOT_FOUND);
        ok("model", "delete", model, "--yes");
        assertThat(Files.size(CraterTestResource.home()
                        .resolve("spaces/users")
                        .resolve(Values.text(seen.json(), "space").substring(5))
                        .resolve("fc-imagenet/part-0.bin")))
                .isEqualTo(1000);
    }

    static List<String> zipNames(byte[] zip) throws Exception {
        List<String> names = new ArrayList<>();
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(zip), StandardCharsets.UTF_8)) {
            for (ZipEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
                names.add(e.getName());
            }
        }
        return names;
    }
}
