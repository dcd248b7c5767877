package io.crater;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A laptop installs the client from a running server the way the console's profile page says
 * ({@code curl -fsSL <server>/cli/install.sh | sh}), with nothing of the repository on its PATH, and signs in.
 */
class ClientInstallIT {

    record Result(int exit, String out) {}

    @Test
    void theInstallLineFromTheServerGivesAWorkingClient() throws Exception {
        Path home = TestDirs.create("crater-install-server");
        Path laptop = TestDirs.create("crater-laptop");
        try (PackagedApp app = new PackagedApp(home).start()) {
            String info = app.get("/api/v1/cli").body();
            assertThat(info).contains("\"available\":true").contains("/cli/install.sh | sh");
            String install = "curl -fsSL " + app.url() + "/cli/install.sh | sh";
            assertThat(info).contains(install);

            Result installed = shell(laptop, install, "");
            assertThat(installed.exit()).as(installed.out()).isZero();
            assertThat(installed.out()).contains("Next:  crater login " + app.url());
            Path crater = laptop.resolve(".local/bin/crater");
            assertThat(Files.getPosixFilePermissions(crater)).contains(PosixFilePermission.OWNER_EXECUTE);
            assertThat(laptop.resolve(".local/share/crater/crater.jsa"))
                    .as("the AppCDS archive made on first use")
                    .exists();

            String[] admin = app.initialAdmin();
            Result login = shell(
                    laptop, crater + " login " + app.url() + " -u " + admin[0] + " --password-stdin", admin[1] + "\n");
            assertThat(login.exit()).as(login.out()).isZero();
            Path config = laptop.resolve(".config/crater/config.yaml");
            assertThat(Files.getPosixFilePermissions(config))
                    .containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
            assertThat(Files.readString(config)).contains("token: crt_").doesNotContain(admin[1]);

            Result whoami = shell(laptop, crater + " whoami -o json", "");
            assertThat(whoami.exit()).as(whoami.out()).isZero();
            assertThat(whoami.out()).contains("\"username\" : \"admin\"");

            Result damaged = shell(
                    laptop,
                    "curl -fsSL " + app.url() + "/cli/install.sh | sed 's/^expected=.*/expected=0000/' | sh",
                    "");
            assertThat(damaged.exit()).isNotZero();
            assertThat(damaged.out()).contains("the download is damaged");
            assertThat(shell(laptop, crater + " --version", "").exit())
                    .as("a failed update leaves the installed client working")
                    .isZero();
        }
    }

    /** Runs a shell line as a user whose HOME is {@code home} and whose PATH has only the system's commands. */
    private static Result shell(Path home, String line, String stdin) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("sh", "-c", line));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.startsWith("CRATER_") || k.startsWith("XDG_"));
        env.put("HOME", home.toString());
        env.put("PATH", "/usr/local/bin:/usr/bin:/bin");
        Process p = pb.start();
        p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        return new Result(p.exitValue(), out);
    }
}
