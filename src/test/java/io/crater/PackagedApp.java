package io.crater;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The packaged application ({@code target/quarkus-app/quarkus-run.jar server}) run as a user runs it. */
public final class PackagedApp implements AutoCloseable {

    private final Path home;
    private final int port;
    private final String verb;
    private final Map<String, String> extraEnv;
    private final String readyLine;
    private Process process;
    private final List<String> output = Collections.synchronizedList(new ArrayList<>());
    private long startMillis;
    private final List<String> extraJvm = new ArrayList<>();

    public PackagedApp(Path home) {
        this(home, "server", Map.of(), "Console: http://");
    }

    /** Runs {@code verb} ({@code server}, {@code sim}) with extra environment, ready when a line contains {@code readyLine}. */
    public PackagedApp(Path home, String verb, Map<String, String> extraEnv, String readyLine) {
        this.home = home;
        this.port = freePort();
        this.verb = verb;
        this.extraEnv = Map.copyOf(extraEnv);
        this.readyLine = readyLine;
    }

    /** JVM options added after the launcher's (a later option wins); call before {@link #start}. */
    public PackagedApp jvm(String... options) {
        extraJvm.addAll(List.of(options));
        return this;
    }

    /**
     * The JVM options {@code bin/crater} starts the server with ({@code bin/server-jvm.options}), or, when the
     * system property {@code crater.app.jvm-options} is set, those (space-separated) instead.
     */
    public static List<String> launcherJvmOptions() throws IOException {
        String override = System.getProperty("crater.app.jvm-options");
        if (override != null) {
            return override.isBlank() ? List.of() : List.of(override.trim().split("\\s+"));
        }
        List<String> options = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of("bin/server-jvm.options"))) {
            String l = line.trim();
            if (!l.isEmpty() && !l.startsWith("#")) {
                options.addAll(List.of(l.split("\\s+")));
            }
        }
        return options;
    }

    /**
     * The environment {@code bin/crater} starts the server with ({@code bin/server-jvm.env}: each variable unless the
     * caller has it already).
     */
    public static Map<String, String> launcherEnv() throws IOException {
        Map<String, String> env = new java.util.LinkedHashMap<>();
        for (String line : Files.readAllLines(Path.of("bin/server-jvm.env"))) {
            String l = line.trim();
            int eq = l.indexOf('=');
            if (!l.isEmpty() && !l.startsWith("#") && eq > 0) {
                env.put(l.substring(0, eq), l.substring(eq + 1));
            }
        }
        return env;
    }

    public PackagedApp start() throws Exception {
        String jar = System.getProperty("crater.app.jar", "target/quarkus-app/quarkus-run.jar");
        List<String> command = new ArrayList<>(List.of("java"));
        command.addAll(launcherJvmOptions());
        command.addAll(extraJvm);
        command.addAll(List.of("-jar", jar, verb));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        Map<String, String> env = pb.environment();
        env.put("CRATER_HOME", home.toString());
        env.put("QUARKUS_HTTP_PORT", Integer.toString(port));
        env.put("CRATER_SSH_PORT", "0"); // replicas side by side each take a free port
        env.put("CRATER_APPS_PORT", "0");
        env.remove("CRATER_DB_URL");
        env.remove("KUBECONFIG");
        launcherEnv().forEach(env::putIfAbsent);
        env.putAll(extraEnv);
        output.clear();
        long t0 = System.nanoTime();
        process = pb.start();
        Thread pump = new Thread(() -> {
            try (BufferedReader r =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    output.add(line);
                }
            } catch (IOException ignored) {
                // the process ended
            }
        });
        pump.setDaemon(true);
        pump.start();
        long deadline = System.currentTimeMillis() + 120_000;
        while (output().stream().noneMatch(l -> l.contains(readyLine))) {
            if (!process.isAlive()) {
                throw new IllegalStateException(
                        "Crater exited with " + process.exitValue() + ":\n" + String.join("\n", output()));
            }
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException("Crater did not start within 120 s:\n" + String.join("\n", output()));
            }
            Thread.sleep(100);
        }
        startMillis = (System.nanoTime() - t0) / 1_000_000;
        return this;
    }

    public Path home() {
        return home;
    }

    public String url() {
        return "http://127.0.0.1:" + port;
    }

    public long startMillis() {
        return startMillis;
    }

    public List<String> output() {
        synchronized (output) {
            return List.copyOf(output);
        }
    }

    public long pid() {
        return process.pid();
    }

    /** The rest of the first output line containing {@code prefix}, after it; null when there is none. */
    public String lineAfter(String prefix) {
        return output().stream()
                .filter(l -> l.contains(prefix))
                .map(l -> l.substring(l.indexOf(prefix) + prefix.length()).trim())
                .findFirst()
                .orElse(null);
    }

    public boolean alive() {
        return process != null && process.isAlive();
    }

    /** Resident memory of the JVM in KiB, from /proc. */
    public long rssKib() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + process.pid() + "/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }

    /** SIGKILL: nothing runs on the way out, the embedded PostgreSQL is left behind. */
    public void kill9() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    public HttpResponse<String> post(String path, String json) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create(url() + path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .timeout(Duration.ofSeconds(30))
                .build();
        return HttpClient.newHttpClient().send(req, HttpResponse.BodyHandlers.ofString());
    }

    public HttpResponse<String> get(String path) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create(url() + path))
                .timeout(Duration.ofSeconds(30))
                .build();
        return HttpClient.newHttpClient().send(req, HttpResponse.BodyHandlers.ofString());
    }

    /** A call with a bearer token (none when null); {@code account} sets X-Crater-Account when not null. */
    public HttpResponse<String> call(String method, String path, String token, String account, String json)
            throws Exception {
        return call(method, path, token, account, json, java.util.Map.of());
    }

    public HttpResponse<String> call(
            String method,
            String path,
            String token,
            String account,
            String json,
            java.util.Map<String, String> headers)
            throws Exception {
        HttpRequest.Builder req = HttpRequest.newBuilder(URI.create(url() + path))
                .header("Content-Type", "application/json")
                .method(
                        method,
                        json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json))
                .timeout(Duration.ofSeconds(30));
        if (token != null) {
            req.header("Authorization", "Bearer " + token);
        }
        if (account != null) {
            req.header("X-Crater-Account", account);
        }
        headers.forEach(req::header);
        return HttpClient.newHttpClient().send(req.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Signs in and gives the access token. */
    public String login(String username, String password) throws Exception {
        HttpResponse<String> r =
                post("/api/v1/auth/login", "{\"username\":\"" + username + "\",\"password\":\"" + password + "\"}");
        var m = java.util.regex.Pattern.compile("\"accessToken\"\\s*:\\s*\"([^\"]+)\"")
                .matcher(r.body());
        if (r.statusCode() != 200 || !m.find()) {
            throw new IllegalStateException("sign-in failed: " + r.statusCode() + " " + r.body());
        }
        return m.group(1);
    }

    /** The credentials the first start left in CRATER_HOME. */
    public String[] initialAdmin() throws IOException {
        String user = null;
        String password = null;
        for (String line : Files.readAllLines(home.resolve("initial-admin.txt"))) {
            if (line.startsWith("username: ")) {
                user = line.substring(10);
            } else if (line.startsWith("password: ")) {
                password = line.substring(10);
            }
        }
        return new String[] {user, password};
    }

    /** Stops Crater gracefully and any PostgreSQL a killed run left behind. */
    @Override
    public void close() throws Exception {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
        Path pid = home.resolve("postgres/postmaster.pid");
        if (Files.exists(pid)) {
            long p = Long.parseLong(Files.readAllLines(pid).get(0).trim());
            ProcessHandle.of(p).ifPresent(ProcessHandle::destroy);
        }
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
