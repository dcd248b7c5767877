package io.crater;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A person's first visit in headless Chromium (Debian's, driven by playwright-core): a wrong password is
 * refused, the administrator signs in and sees the simulated fleet's accelerator totals, the language switch
 * works. The screenshot is saved as target/console-overview.png.
 */
class BrowserIT {

    @Test
    void adminSignsInAndSeesTheFleet() throws Exception {
        Path home = Files.createTempDirectory("crater-browser");
        File webui = new File(System.getProperty("crater.webui.dir", "src/main/webui"));
        File screenshot = new File("target/console-overview.png").getAbsoluteFile();
        try (PackagedApp app = new PackagedApp(home).start()) {
            String[] admin = app.initialAdmin();
            ProcessBuilder pb = new ProcessBuilder("node", "e2e/overview.mjs")
                    .directory(webui)
                    .redirectErrorStream(true)
                    .inheritIO();
            pb.environment().put("CRATER_URL", app.url());
            pb.environment().put("CRATER_USER", admin[0]);
            pb.environment().put("CRATER_PASSWORD", admin[1]);
            pb.environment()
                    .put(
                            "EXPECT_TOTALS",
                            "{\"nvidia-a100-80gb\":32,\"nvidia-h100-80gb\":16,\"ascend-910b\":16,\"nvidia-rtx-4090\":8}");
            pb.environment().put("SCREENSHOT", screenshot.getPath());
            Process node = pb.start();
            assertThat(node.waitFor(300, TimeUnit.SECONDS))
                    .as("the browser test finished in time")
                    .isTrue();
            assertThat(node.exitValue()).as("the browser test's exit code").isZero();
        }
        assertThat(screenshot).exists();
    }
}
