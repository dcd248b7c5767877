package io.crater.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.crater.K8sTools;
import io.crater.sim.cluster.Fleet;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A current kubectl (1.35, {@code make k8s-tools}) against the simulated cluster, as an admin points one at it: it
 * creates (protobuf bodies), lists with the server's table columns, finds Volcano's kinds by their short names, applies
 * Volcano's example Job with server-side field validation, applies server-side, describes, execs, follows logs and
 * deletes with cascade.
 */
class KubectlTest {

    static final String NS = "crater-jobs";

    /** The quick-start Job of Volcano's README (volcano-sh/volcano), with its volumes left out. */
    static final String VOLCANO_EXAMPLE_JOB = """
            apiVersion: batch.volcano.sh/v1alpha1
            kind: Job
            metadata:
              name: test-job
            spec:
              minAvailable: 3
              schedulerName: volcano
              policies:
                - event: PodEvicted
                  action: RestartJob
              plugins:
                ssh: []
                env: []
                svc: []
              maxRetry: 5
              queue: default
              tasks:
                - replicas: 6
                  name: "default-nginx"
                  template:
                    metadata:
                      name: web
                    spec:
                      containers:
                        - image: nginx
                          imagePullPolicy: IfNotPresent
                          name: nginx
                          resources:
                            requests:
                              cpu: "1"
                      restartPolicy: OnFailure
            """;

    record Run(int exit, String out, String err) {
        List<String> lines() {
            return Arrays.asList(out.split("\n"));
        }

        /** The output's header line, its columns separated by single spaces. */
        String header() {
            return lines().get(0).trim().replaceAll("\\s+", " ");
        }
    }

    static Simulator sim;
    static Path dir;

    @BeforeAll
    static void start(@TempDir Path tmp) throws IOException {
        dir = tmp;
        sim = new Simulator(Simulator.Settings.defaults(Fleet.defaults(), NS), Clock.systemUTC());
        String url = sim.start(0);
        Files.writeString(dir.resolve("kubeconfig"), """
                apiVersion: v1
                kind: Config
                clusters:
                - name: sim
                  cluster:
                    server: %s
                contexts:
                - name: sim
                  context:
                    cluster: sim
                    user: admin
                users:
                - name: admin
                  user: {}
                current-context: sim
                """.formatted(url));
    }

    @AfterAll
    static void stop() {
        sim.close();
    }

    static Process launch(String... args) {
        List<String> command = new ArrayList<>();
        command.add(K8sTools.kubectl().toString());
        command.add("--cache-dir=" + dir.resolve("cache"));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().put("KUBECONFIG", dir.resolve("kubeconfig").toString());
        pb.environment().put("HOME", dir.toString());
        try {
            return pb.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Run kubectl(String... args) {
        return kubectlWithInput(null, args);
    }

    static Run kubectlWithInput(String stdin, String... args) {
        Process p = launch(args);
        CompletableFuture<String> out = read(p.getInputStream());
        CompletableFuture<String> err = read(p.getErrorStream());
        try (var in = p.getOutputStream()) {
            if (stdin != null) {
                in.write(stdin.getBytes(StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("kubectl " + String.join(" ", args) + " did not end");
            }
            return new Run(p.exitValue(), out.get(), err.get());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    static CompletableFuture<String> read(InputStream in) {
        return CompletableFuture.supplyAsync(() -> {
            try (in) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "";
            }
        });
    }

    static Path file(String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name), content);
    }

    @Test
    void createsWithProtobufAndListsWithTheServersColumns() {
        Run created = kubectl("create", "namespace", "probe");
        assertThat(created.exit()).as(created.err()).isZero();
        assertThat(created.out()).contains("namespace/probe created");
        assertThat(kubectl("create", "namespace", "probe").err()).contains("AlreadyExists");
        assertThat(kubectl("create", "configmap", "settings", "-n", "probe", "--from-literal=mode=fast")
                        .exit())
                .isZero();
        assertThat(kubectl("get", "cm", "settings", "-n", "probe", "-o", "jsonpath={.data.mode}")
                        .out())
                .isEqualTo("fast");
        Run dry = kubectl("create", "namespace", "dry", "--dry-run=server", "-o", "name");
        assertThat(dry.out()).contains("namespace/dry");
        assertThat(kubectl("get", "ns", "dry").err()).contains("NotFound");

        Run namespaces = kubectl("get", "ns");
        assertThat(namespaces.header()).isEqualTo("NAME STATUS AGE");
        assertThat(namespaces.out()).containsPattern("probe\\s+Active\\s+\\d+s");
        Run nodes = kubectl("get", "nodes");
        assertThat(nodes.header()).isEqualTo("NAME STATUS ROLES AGE VERSION");
        assertThat(nodes.lines().get(1)).containsPattern("\\s+Ready\\s+<none>\\s+\\d+s\\s+v1\\.");
        assertThat(kubectl("get", "no", "-o", "wide").header())
                .startsWith("NAME STATUS ROLES AGE VERSION INTERNAL-IP EXTERNAL-IP OS-IMAGE");
    }

    @Test
    void appliesVolcanosExampleJobAndFollowsItToItsPods() throws IOException {
        Path job = file("job.yaml", VOLCANO_EXAMPLE_JOB);
        Run applied = kubectl("apply", "-n", NS, "-f", job.toString());
        assertThat(applied.exit()).as(applied.err()).isZero();
        assertThat(applied.out()).contains("job.batch.volcano.sh/test-job created");
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(
                        () -> assertThat(kubectl("get", "vcjob", "-n", NS).out())
                                .containsPattern("test-job\\s+Running\\s+3\\s+6\\s+\\d+s"));
        assertThat(kubectl("get", "vcjob", "-n", NS).header()).isEqualTo("NAME STATUS MINAVAILABLE RUNNINGS AGE");
        assertThat(kubectl("get", "vj", "-n", NS, "-o", "wide").header()).endsWith("AGE QUEUE");
        assertThat(kubectl("get", "pg", "-n", NS).header()).isEqualTo("NAME STATUS MINMEMBER RUNNINGS AGE");

        Run pods = kubectl("get", "pods", "-n", NS, "-l", "volcano.sh/job-name=test-job");
        assertThat(pods.header()).isEqualTo("NAME READY STATUS RESTARTS AGE");
        assertThat(pods.out()).containsPattern("test-job-default-nginx-0\\s+1/1\\s+Running\\s+0\\s+\\d+s");
        assertThat(pods.lines()).hasSize(7);
        Run wide = kubectl("get", "po", "-n", NS, "-o", "wide", "test-job-default-nginx-0");
        assertThat(wide.header()).startsWith("NAME READY STATUS RESTARTS AGE IP NODE");
        assertThat(kubectl("get", "all", "-n", NS).out()).contains("pod/test-job-default-nginx-5");

        Run described = kubectl("describe", "pod", "-n", NS, "test-job-default-nginx-0");
        assertThat(described.out()).contains("Controlled By:  Job/test-job", "Status:         Running");
        Run hi = kubectl("exec", "-n", NS, "test-job-default-nginx-0", "--", "echo", "hi");
        assertThat(hi.exit()).as(hi.err()).isZero();
        assertThat(hi.out()).isEqualTo("hi\n");
        assertThat(kubectl("exec", "-n", NS, "test-job-default-nginx-0", "--", "sh", "-c", "exit 3")
                        .exit())
                .isEqualTo(3);
        Run piped = kubectlWithInput("echo piped\n", "exec", "-i", "-n", NS, "test-job-default-nginx-0", "--", "sh");
        assertThat(piped.out()).isEqualTo("piped\n");
        assertFollows("test-job-default-nginx-1");
        Run logs = kubectl("logs", "-n", NS, "test-job-default-nginx-1", "--timestamps");
        assertThat(logs.exit()).as(logs.err()).isZero();
        assertThat(logs.lines().get(0))
                .matches("\\d{4}-\\d{2}-\\d{2}T\\S+ container nginx started from image nginx on node .+");
        assertThat(kubectl("logs", "-n", NS, "test-job-default-nginx-1", "--tail=1")
                        .lines())
                .hasSize(1);
        assertThat(kubectl("logs", "-n", NS, "no-such-pod").err()).contains("pods \"no-such-pod\" not found");
        assertForwards("test-job-default-nginx-2");

        Run deleted = kubectl("delete", "vcjob", "test-job", "-n", NS);
        assertThat(deleted.out()).contains("\"test-job\" deleted");
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(kubectl("get", "pods", "-n", NS, "-l", "volcano.sh/job-name=test-job")
                                .err())
                        .contains("No resources found"));
    }

    /** {@code kubectl logs -f} prints the container's lines as they come, without waiting for its end. */
    static void assertFollows(String pod) {
        Process p = launch("logs", "-f", "-n", NS, pod);
        try {
            var reader = p.inputReader(StandardCharsets.UTF_8);
            List<String> lines = CompletableFuture.supplyAsync(() -> {
                        List<String> first = new ArrayList<>();
                        try {
                            while (first.size() < 3) {
                                first.add(reader.readLine());
                            }
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                        return first;
                    })
                    .get(20, TimeUnit.SECONDS);
            assertThat(lines.get(0)).contains("container nginx started");
            assertThat(lines.get(2)).isNotNull();
            assertThat(p.isAlive()).as("still following").isTrue();
        } catch (Exception e) {
            throw new AssertionError(e);
        } finally {
            p.destroyForcibly();
        }
    }

    /**
     * {@code kubectl port-forward} (SPDY tunnelled through a WebSocket) reaches the pod's port, here backed by a local
     * HTTP server, once per connection to its local port; a port nothing listens on gets the kubelet's error, on which
     * kubectl ends the session.
     */
    static void assertForwards(String pod) throws IOException {
        HttpServer nginx = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        nginx.createContext("/", exchange -> {
            byte[] body = ("hello from " + pod + " at " + exchange.getRequestURI()).getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        nginx.start();
        sim.backPort(NS, pod, 80, nginx.getAddress());
        Process p = launch("port-forward", "-n", NS, "pod/" + pod, ":80", ":81");
        StringBuffer out = collect(p.getInputStream());
        StringBuffer err = collect(p.getErrorStream());
        try {
            await().atMost(Duration.ofSeconds(20))
                    .untilAsserted(() -> assertThat(out.toString()).contains("-> 81"));
            Matcher local = Pattern.compile("Forwarding from 127\\.0\\.0\\.1:(\\d+) -> (\\d+)")
                    .matcher(out.toString());
            assertThat(local.find()).as(out.toString()).isTrue();
            int web = Integer.parseInt(local.group(1));
            assertThat(local.group(2)).isEqualTo("80");
            assertThat(local.find()).isTrue();
            int refused = Integer.parseInt(local.group(1));
            for (String path : List.of("/first", "/second")) {
                String response = httpGet(web, path);
                assertThat(response).startsWith("HTTP/1.1 200 OK").endsWith("hello from " + pod + " at " + path);
            }
            assertThat(httpGet(refused, "/")).isEmpty();
            await().atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> assertThat(err.toString())
                            .contains("error forwarding port 81 to pod " + pod)
                            .contains("failed to connect to localhost:81 inside the pod"));
            assertThat(out.toString()).contains("Handling connection for " + web, "Handling connection for " + refused);
            // kubectl closes the whole session on a refusal from the kubelet, here as on a real node.
            assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(err.toString()).contains("error: lost connection to pod");
        } catch (IOException | AssertionError | InterruptedException e) {
            throw new AssertionError("kubectl port-forward printed:\n" + out + err, e);
        } finally {
            p.destroy();
            sim.removeBackPort(NS, pod, 80);
            nginx.stop(0);
        }
    }

    /**
     * An HTTP/1.0 GET through a forwarded local port: the whole response, or nothing when the forward ends. kubectl
     * ends a refused forward by closing the local connection, which reaches the reader as its end or, when kubectl
     * closes before reading the request, as a reset: both are nothing.
     */
    static String httpGet(int port, String path) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(20_000);
            socket.getOutputStream()
                    .write(("GET " + path + " HTTP/1.0\r\nHost: pod\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        } catch (java.net.SocketException e) {
            if (String.valueOf(e.getMessage()).contains("Connection reset")) {
                return "";
            }
            throw e;
        }
    }

    static StringBuffer collect(InputStream in) {
        StringBuffer text = new StringBuffer();
        Thread reader = new Thread(() -> {
            try (var chars = new InputStreamReader(in, StandardCharsets.UTF_8)) {
                char[] chunk = new char[4096];
                for (int n; (n = chars.read(chunk)) > 0; ) {
                    text.append(chunk, 0, n);
                }
            } catch (IOException e) {
                // the process ended
            }
        });
        reader.setDaemon(true);
        reader.start();
        return text;
    }

    @Test
    void validatesFieldsOnTheServerAsStrictOrWarn() throws IOException {
        Path bad = file(
                "bad.yaml",
                VOLCANO_EXAMPLE_JOB
                        .replace("name: test-job", "name: bad-job")
                        .replace("  maxRetry: 5\n", "  maxRetry: 5\n  retries: 1\n"));
        Run strict = kubectl("apply", "-n", NS, "-f", bad.toString());
        assertThat(strict.exit()).isNotZero();
        assertThat(strict.err())
                .contains("Job in version \"v1alpha1\" cannot be handled as a Job: strict decoding error:"
                        + " unknown field \"spec.retries\"");
        assertThat(kubectl("get", "vcjob", "bad-job", "-n", NS).err()).contains("NotFound");

        Run warned = kubectl("apply", "-n", NS, "-f", bad.toString(), "--validate=warn");
        assertThat(warned.exit()).as(warned.err()).isZero();
        assertThat(warned.err()).contains("Warning: unknown field \"spec.retries\"");
        assertThat(kubectl("get", "vcjob", "bad-job", "-n", NS, "-o", "jsonpath={.spec.maxRetry}/{.spec.retries}")
                        .out())
                .as("pruned, as the real server prunes what the schema does not declare")
                .isEqualTo("5/");
        kubectl("delete", "vcjob", "bad-job", "-n", NS);
    }

    @Test
    void appliesServerSideAndClientSide() throws IOException {
        String config = """
                apiVersion: v1
                kind: ConfigMap
                metadata:
                  name: %s
                  namespace: crater-jobs
                  labels: {%s}
                data: {%s}
                """;
        Path ssa = file("ssa.yaml", config.formatted("ssa", "team: a, tier: gold", "mode: fast"));
        Run created = kubectl("apply", "--server-side", "-f", ssa.toString());
        assertThat(created.exit()).as(created.err()).isZero();
        assertThat(created.out()).contains("configmap/ssa serverside-applied");
        file("ssa.yaml", config.formatted("ssa", "team: b", "mode: slow"));
        assertThat(kubectl("apply", "--server-side", "-f", ssa.toString()).exit())
                .isZero();
        assertThat(kubectl("get", "cm", "ssa", "-n", NS, "-o", "jsonpath={.metadata.labels}|{.data.mode}")
                        .out())
                .as("a label no longer applied is removed")
                .isEqualTo("{\"team\":\"b\"}|slow");
        assertThat(kubectl("get", "cm", "ssa", "-n", NS, "--show-managed-fields", "-o", "yaml")
                        .out())
                .contains("manager: kubectl", "operation: Apply");

        Path csa = file("csa.yaml", config.formatted("csa", "team: a", "one: \"1\""));
        assertThat(kubectl("apply", "-f", csa.toString()).out()).contains("configmap/csa created");
        file("csa.yaml", config.formatted("csa", "team: a", "two: \"2\""));
        assertThat(kubectl("apply", "-f", csa.toString()).out()).contains("configmap/csa configured");
        assertThat(kubectl("get", "cm", "csa", "-n", NS, "-o", "jsonpath={.data}")
                        .out())
                .isEqualTo("{\"two\":\"2\"}");
    }
}
