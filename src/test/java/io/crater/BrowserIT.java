package io.crater;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * People's flows in headless Chromium (Debian's, driven by playwright-core) against the packaged application,
 * each on a fresh CRATER_HOME. The scripts live in src/main/webui/e2e; screenshots go to target/.
 */
class BrowserIT {

    /**
     * A wrong password is refused, the administrator signs in and sees the simulated fleet's accelerator totals,
     * clicks the node a member's job runs on and sees the job and its pod there, makes the node exclusive to the
     * member's account and shares it again; the member's Free GPUs page shows the
     * A100s free (the total less the job's card) and the one card the account may still use; the language switch
     * works.
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
     * limits them to 2 GPUs; the student asks for a grant of 4; the admin approves; the student sees max 20; a device
     * sign-in's link, opened signed out, goes through the sign-in page and back, and the student's approval hands the
     * polling client a token of theirs, once.
     */
    @Test
    void accountAdminMemberAndGrantFlow() throws Exception {
        run("governance.mjs", "console-governance.png", Map.of());
    }

    /**
     * The admin sets a price and a budget in the console and downloads the month's usage as CSV; a member sees the
     * balance, what was spent, the burn rate and the daily cost chart.
     */
    @Test
    void anAdminPricesAndBudgetsAndAMemberSeesTheBill() throws Exception {
        run("accounting.mjs", "console-accounting.png", Map.of());
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

    /**
     * A folder of 10,000 files written into the user's space fills the file manager from its event stream (the first
     * 500 in order, more on request, filtered by name), and a folder picked on the computer uploads with a progress
     * bar per file and lands on the server's disk whole.
     */
    @Test
    void aUserBrowsesTenThousandFilesAndUploadsAFolder() throws Exception {
        run("files.mjs", "console-files.png", Map.of());
    }

    /**
     * A user's files written through the file API become the dataset "mnist" on the Data page; the new-job form's
     * mount picker mounts it read-only at a path the user chose, and in the running job's terminal {@code ls -1}
     * lists its files and a write there is refused; "Open in TensorBoard" makes a panel over the job's working
     * directory, whose tab on its own origin lists the runs there (and one written later); the Downloads and Builds
     * tabs show their empty states in English and Chinese without errors.
     */
    @Test
    void aDatasetGoesIntoAJobAndItsRunsIntoTensorBoard() throws Exception {
        run("data.mjs", "console-data.png", Map.of());
    }

    /**
     * The owner starts a notebook from the built-in template; a real Jupyter Notebook server (Debian's, started with
     * the pod's base URL, the token from the job's Secret and the user's space as its folder) serves the pod's app
     * port through pods/portforward; on the job's own origin the owner creates a Python 3 notebook, runs
     * {@code print(6*7)} and sees 42 (the kernel's WebSocket through the proxy), saves it into their space, stops the
     * job, and Jupyter with its kernels is stopped.
     */
    @Test
    void ownerRunsCodeInARealNotebookBehindTheProxy() throws Exception {
        assertThat(new File(System.getProperty("crater.jupyter", "/usr/bin/jupyter-notebook")))
                .as("Debian's jupyter-notebook (make notebook installs it)")
                .exists();
        int jupyterPort = freePort();
        File pidFile = new File("target/jupyter-e2e.pid").getAbsoluteFile();
        Files.deleteIfExists(pidFile.toPath());
        try {
            run(
                    "jupyter.mjs",
                    "console-jupyter.png",
                    Map.of("CRATER_SIM_PORT_BACKENDS", "kind/jupyter:8888=127.0.0.1:" + jupyterPort),
                    Map.of(
                            "JUPYTER_PORT", Integer.toString(jupyterPort),
                            "JUPYTER_PID_FILE", pidFile.getPath(),
                            "JUPYTER_LOG", new File("target/jupyter-e2e.log").getAbsolutePath()));
        } finally {
            stopLeftOver(pidFile.toPath());
        }
    }

    /** Stops a Jupyter server (and what it started) that the script could not stop itself. */
    private static void stopLeftOver(Path pidFile) throws Exception {
        if (!Files.exists(pidFile)) {
            return;
        }
        long pid = Long.parseLong(Files.readString(pidFile).trim());
        ProcessHandle.of(pid).ifPresent(server -> {
            server.descendants().forEach(ProcessHandle::destroyForcibly);
            server.destroyForcibly();
        });
    }

    private static String lastLines(PackagedApp app, int n) {
        List<String> lines = app.output();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - n), lines.size()));
    }

    private static int freePort() throws java.io.IOException {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static void run(String script, String screenshotName, Map<String, String> extraEnv) throws Exception {
        run(script, screenshotName, Map.of(), extraEnv);
    }

    /** Runs a script against a packaged app started with {@code appEnv}, the script with {@code extraEnv}. */
    private static void run(
            String script, String screenshotName, Map<String, String> appEnv, Map<String, String> extraEnv)
            throws Exception {
        Path home = TestDirs.create("crater-browser");
        File webui = new File(System.getProperty("crater.webui.dir", "src/main/webui"));
        File screenshot = new File("target/" + screenshotName).getAbsoluteFile();
        Files.deleteIfExists(screenshot.toPath());
        try (PackagedApp app = new PackagedApp(home, "server", appEnv, "Console: http://").start()) {
            String[] admin = app.initialAdmin();
            // The script's output goes to a file and into the failure's message: a forked test JVM's inherited
            // stdout is read by the test runner and never reaches the build's log.
            File output = new File("target/e2e-" + script.replace(".mjs", ".log")).getAbsoluteFile();
            ProcessBuilder pb = new ProcessBuilder("node", "e2e/" + script)
                    .directory(webui)
                    .redirectErrorStream(true)
                    .redirectOutput(output);
            pb.environment().put("CRATER_URL", app.url());
            pb.environment().put("CRATER_USER", admin[0]);
            pb.environment().put("CRATER_PASSWORD", admin[1]);
            pb.environment().put("SCREENSHOT", screenshot.getPath());
            pb.environment().put("CRATER_HOME", home.toString());
            pb.environment().put("CRATER_KUBE_API", app.lineAfter("simulated Kubernetes API server listening on "));
            pb.environment().putAll(extraEnv);
            Process node = pb.start();
            boolean finished = node.waitFor(300, TimeUnit.SECONDS);
            if (!finished) {
                node.destroyForcibly();
            }
            String printed = Files.readString(output.toPath());
            assertThat(finished)
                    .as("the browser test finished in time:%n%s", printed)
                    .isTrue();
            assertThat(node.exitValue())
                    .as(
                            "the browser test's exit code; it printed:%n%s%nthe server printed (last lines):%n%s",
                            printed, lastLines(app, 40))
                    .isZero();
        }
        assertThat(screenshot).exists();
    }
}
