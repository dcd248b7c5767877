package io.crater.bench;

import static io.crater.Api.as;

import io.crater.Api;
import io.crater.CraterTestResource;
import io.crater.TestDirs;
import io.crater.job.Flows;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The command-line client's start-up on this machine (run by {@code make bench}, which builds the client jar
 * first): the median wall time of 20 runs of {@code crater job list -o json} against the local server, beside 20
 * runs of {@code kubectl get pods -o json} against the simulated cluster's API server. It prints figures and
 * asserts nothing about time.
 */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class ClientBench {

    static final int RUNS = 20;
    static final Path JAR = Path.of("target/quarkus-app/cli/crater.jar").toAbsolutePath();
    static final Path LAUNCHER = Path.of("bin/crater-cli").toAbsolutePath();

    @TestHTTPResource("/")
    URL base;

    @Test
    void startUp() throws Exception {
        if (!Files.exists(JAR)) {
            throw new IllegalStateException("no client jar at " + JAR + ": run `make build` (make bench does)");
        }
        String token = Api.user("bench-cli", "Bench-cli-pass-2026");
        Flows.account(
                "bench-cli-lab",
                List.of(Flows.line("cpu", "64", "64"), Flows.line("memory", "256Gi", "256Gi")),
                "bench-cli");
        for (int i = 0; i < 20; i++) {
            as(token)
                    .header("X-Crater-Account", "bench-cli-lab")
                    .body(Map.of(
                            "name",
                            "cli-bench-" + i,
                            "kind",
                            "custom",
                            "image",
                            "busybox",
                            "command",
                            List.of("sleep", "3600"),
                            "resources",
                            Map.of("cpu", "1", "memory", "1Gi")))
                    .post("/api/v1/jobs")
                    .then()
                    .statusCode(201);
        }
        String pat = as(token)
                .body(Map.of("name", "bench"))
                .post("/api/v1/me/tokens")
                .then()
                .extract()
                .path("token");
        Path home = TestDirs.create("crater-cli-bench");
        Map<String, String> env = Map.of(
                "HOME",
                home.toString(),
                "CRATER_SERVER",
                base.toString().replaceAll("/+$", ""),
                "CRATER_TOKEN",
                pat,
                "CRATER_ACCOUNT",
                "bench-cli-lab");
        List<String> crater = List.of(LAUNCHER.toString(), JAR.toString(), "job", "list", "-o", "json");
        Files.deleteIfExists(Path.of(JAR.toString().replace(".jar", ".jsa")));
        long first = time(crater, env);
        List<Long> client = times(crater, env);
        List<Long> version = times(List.of(LAUNCHER.toString(), JAR.toString(), "--version"), env);
        List<Long> noCds = times(
                List.of(
                        "java",
                        "-XX:TieredStopAtLevel=1",
                        "-XX:+UseSerialGC",
                        "-Xshare:auto",
                        "-cp",
                        JAR.toString(),
                        "io.crater.cli.CraterCli",
                        "job",
                        "list",
                        "-o",
                        "json"),
                env);
        System.out.printf("client: first run (makes the AppCDS archive) %d ms%n", first);
        print("client: crater job list -o json", client, 300);
        print("client: crater --version", version, 0);
        print("client: crater job list -o json without AppCDS", noCds, 0);
        Path kubectl = Path.of("/usr/bin/kubectl");
        if (!Files.isExecutable(kubectl)) {
            System.out.println("client: kubectl not installed, no comparison");
            return;
        }
        List<Long> kube = times(
                List.of(
                        kubectl.toString(),
                        "--server",
                        CraterTestResource.simulator().url(),
                        "get",
                        "pods",
                        "-A",
                        "-o",
                        "json"),
                Map.of(
                        "HOME",
                        home.toString(),
                        "KUBECONFIG",
                        home.resolve("none").toString()));
        print("client: kubectl get pods -A -o json (simulated cluster)", kube, 0);
        Report.figure("client.list.median", median(client));
        Report.figure("client.kubectl.median", median(kube));
        System.out.printf(
                "client: crater/kubectl median ratio %.2f%n", (double) median(client) / Math.max(1, median(kube)));
    }

    static void print(String what, List<Long> ms, int anchor) {
        List<Long> s = new ArrayList<>(ms);
        Collections.sort(s);
        System.out.printf(
                "%s: median %d ms, p90 %d ms, min %d ms over %d runs%s%n",
                what,
                median(s),
                s.get((int) Math.ceil(s.size() * 0.9) - 1),
                s.get(0),
                s.size(),
                anchor > 0 ? " (bar: median <= " + anchor + " ms)" : "");
    }

    static long median(List<Long> ms) {
        List<Long> s = new ArrayList<>(ms);
        Collections.sort(s);
        return s.get(s.size() / 2);
    }

    static List<Long> times(List<String> cmd, Map<String, String> env) throws IOException, InterruptedException {
        time(cmd, env);
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < RUNS; i++) {
            out.add(time(cmd, env));
        }
        return out;
    }

    static long time(List<String> cmd, Map<String, String> env) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().keySet().removeIf(k -> k.startsWith("CRATER_") || k.startsWith("XDG_"));
        pb.environment().putAll(env);
        long t0 = System.nanoTime();
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", cmd) + " failed: " + new String(out));
        }
        return (System.nanoTime() - t0) / 1_000_000;
    }
}
