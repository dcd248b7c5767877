package io.crater;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * People's flows in headless Chromium (Debian's, driven by playwright-core) against the packaged application,
 * each on a fresh CRATER_HOME. The scripts live in src/main/webui/e2e; screenshots go to target/.
 */
class BrowserIT {

    /**
     * A wrong password is refused, the administrator signs in and sees the simulated fleet's accelerator
     * totals, the language switch works.
     */
    @Test
    void adminSignsInAndSeesTheFleet() throws Exception {
        run(
                "overview.mjs",
                "console-overview.png",
                Map.of(
                        "EXPECT_TOTALS",
                        "{\"nvidia-a100-80gb\":32,\"nvidia-h100-80gb\":16,\"ascend-910b\":16,\"nvidia-rtx-4090\":8}"));
    }

    /**
     * An admin creates two users and an account with an A100 quota; the account admin adds the student and
     * limits them to 2 GPUs; the student asks for a grant of 4; the admin approves; the student sees max 20.
     */
    @Test
    void accountAdminMemberAndGrantFlow() throws Exception {
        run("governance.mjs", "console-governance.png", Map.of());
    }

    /** A user submits a job from the form (checked first), sees it run and succeed, then stops a second one. */
    @Test
    void userSubmitsWatchesAndStopsJobs() throws Exception {
        run("jobs.mjs", "console-jobs.png", Map.of());
    }

    /**
     * A waiting job's panel shows the reason, its place, a start estimate and a suggestion; following the
     * suggestion starts a copy of the job in its place.
     */
    @Test
    void aWaitingJobSaysWhyWhenAndWhatWouldStartIt() throws Exception {
        run("waits.mjs", "console-waits.png", Map.of());
    }

    /**
     * The owner of a running job opens a terminal in its page, runs a command in the pod's shell and sees its
     * output, sees the GPU utilisation chart, and finds the exact ssh command and config entry on the SSH tab.
     */
    @Test
    void ownerOpensATerminalInARunningJob() throws Exception {
        run("terminal.mjs", "console-terminal.png", Map.of());
    }

    /**
     * The first hour on a fresh server: the admin follows the checklist (password, an account whose GPU-only quota
     * is warned about and fixed with the fleet's ratio, a user made a member); the user starts a notebook from its
     * template in the team account, opens it, uses its terminal ({@code nvidia-smi}, {@code ls ~}) and reads why a
     * second job waits, in English and in Chinese with the same numbers; the checklist is then complete.
     */
    @Test
    void aNewAdminAndANewUserGetToARunningNotebook() throws Exception {
        run("first-hour.mjs", "console-first-hour.png", Map.of());
    }

    private static void run(String script, String screenshotName, Map<String, String> extraEnv) throws Exception {
        Path home = Files.createTempDirectory("crater-browser");
        File webui = new File(System.getProperty("crater.webui.dir", "src/main/webui"));
        File screenshot = new File("target/" + screenshotName).getAbsoluteFile();
        Files.deleteIfExists(screenshot.toPath());
        try (PackagedApp app = new PackagedApp(home).start()) {
            String[] admin = app.initialAdmin();
            ProcessBuilder pb = new ProcessBuilder("node", "e2e/" + script)
                    .directory(webui)
                    .redirectErrorStream(true)
                    .inheritIO();
            pb.environment().put("CRATER_URL", app.url());
            pb.environment().put("CRATER_USER", admin[0]);
            pb.environment().put("CRATER_PASSWORD", admin[1]);
            pb.environment().put("SCREENSHOT", screenshot.getPath());
            pb.environment().putAll(extraEnv);
            Process node = pb.start();
            assertThat(node.waitFor(300, TimeUnit.SECONDS))
                    .as("the browser test finished in time")
                    .isTrue();
            assertThat(node.exitValue()).as("the browser test's exit code").isZero();
        }
        assertThat(screenshot).exists();
    }
}
