package io.crater;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;
import org.bouncycastle.crypto.generators.OpenBSDBCrypt;

/**
 * A real OCI registry (Debian's {@code docker-registry}, distribution 2.8.2, installed by {@code make registry})
 * started by a test on a free port of 127.0.0.1 with its storage in a temporary folder, optionally behind htpasswd
 * Basic authentication (bcrypt, as the registry requires). {@link #push} uploads a config and a layer blob and puts an
 * OCI image manifest through the distribution API, as {@code docker push} does; {@link #close()} stops it and deletes
 * the folder.
 */
public final class RealRegistry implements AutoCloseable {

    private final Path dir;
    private final Process process;
    private final int port;
    private final String authorization;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private RealRegistry(Path dir, Process process, int port, String authorization) {
        this.dir = dir;
        this.process = process;
        this.port = port;
        this.authorization = authorization;
    }

    /** Starts a registry; with a username, only that user and password may read and push. */
    public static RealRegistry start(String username, String password) throws IOException, InterruptedException {
        Path dir = TestDirs.create("crater-registry");
        int port = freePort();
        StringBuilder config = new StringBuilder("version: 0.1\nlog:\n  level: warn\nstorage:\n  filesystem:\n"
                + "    rootdirectory: " + dir.resolve("data") + "\nhttp:\n  addr: 127.0.0.1:" + port + "\n");
        String authorization = null;
        if (username != null) {
            byte[] salt = new byte[16];
            new SecureRandom().nextBytes(salt);
            String hash = OpenBSDBCrypt.generate("2y", password.toCharArray(), salt, 6);
            Files.writeString(dir.resolve("htpasswd"), username + ":" + hash + "\n");
            config.append("auth:\n  htpasswd:\n    realm: crater-test\n    path: ")
                    .append(dir.resolve("htpasswd"))
                    .append('\n');
            authorization = "Basic "
                    + Base64.getEncoder().encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8));
        }
        Files.writeString(dir.resolve("config.yml"), config.toString());
        Process p = new ProcessBuilder(
                        "docker-registry", "serve", dir.resolve("config.yml").toString())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("registry.log").toFile())
                .start();
        RealRegistry registry = new RealRegistry(dir, p, port, authorization);
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!registry.ready()) {
            if (!p.isAlive() || System.nanoTime() > deadline) {
                String log = Files.readString(dir.resolve("registry.log"));
                registry.close();
                throw new IllegalStateException("the registry did not start: " + log);
            }
            Thread.sleep(100);
        }
        return registry;
    }

    private boolean ready() {
        try {
            int status = http.send(
                            HttpRequest.newBuilder(URI.create(url() + "/v2/")).build(),
                            HttpResponse.BodyHandlers.discarding())
                    .statusCode();
            return status == 200 || status == 401;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** {@code 127.0.0.1:<port>}, as an image reference names the registry. */
    public String host() {
        return "127.0.0.1:" + port;
    }

    public String url() {
        return "http://" + host();
    }

    /** Pushes a small image (a config and one layer) as {@code repository:tag}; the manifest's digest. */
    public String push(String repository, String tag) throws IOException, InterruptedException {
        byte[] config =
                ("{\"architecture\":\"amd64\",\"os\":\"linux\",\"rootfs\":{\"type\":\"layers\",\"diff_ids\":[]},"
                                + "\"config\":{\"Labels\":{\"tag\":\"" + tag + "\"}}}")
                        .getBytes(StandardCharsets.UTF_8);
        byte[] layer = ("layer of " + repository + ":" + tag).getBytes(StandardCharsets.UTF_8);
        String configDigest = upload(repository, config);
        String layerDigest = upload(repository, layer);
        byte[] manifest = ("{\"schemaVersion\":2,\"mediaType\":\"application/vnd.oci.image.manifest.v1+json\","
                        + "\"config\":{\"mediaType\":\"application/vnd.oci.image.config.v1+json\",\"digest\":\""
                        + configDigest + "\",\"size\":" + config.length + "},\"layers\":[{\"mediaType\":"
                        + "\"application/vnd.oci.image.layer.v1.tar\",\"digest\":\"" + layerDigest + "\",\"size\":"
                        + layer.length + "}]}")
                .getBytes(StandardCharsets.UTF_8);
        HttpResponse<String> put = http.send(
                request("/v2/" + repository + "/manifests/" + tag)
                        .header("Content-Type", "application/vnd.oci.image.manifest.v1+json")
                        .PUT(HttpRequest.BodyPublishers.ofByteArray(manifest))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (put.statusCode() != 201) {
            throw new IllegalStateException("manifest PUT answered " + put.statusCode() + ": " + put.body());
        }
        String digest = sha256(manifest);
        if (!digest.equals(put.headers().firstValue("Docker-Content-Digest").orElse(""))) {
            throw new IllegalStateException("the registry stored another digest: " + put.headers());
        }
        return digest;
    }

    /** A monolithic blob upload: {@code POST /v2/<name>/blobs/uploads/?digest=…} with the bytes. */
    private String upload(String repository, byte[] blob) throws IOException, InterruptedException {
        String digest = sha256(blob);
        HttpResponse<String> r = http.send(
                request("/v2/" + repository + "/blobs/uploads/?digest=" + digest)
                        .header("Content-Type", "application/octet-stream")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(blob))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 202) {
            // The registry opened an upload session instead: finish it with one PUT of the bytes.
            String location = r.headers().firstValue("Location").orElseThrow();
            URI target = URI.create(url()).resolve(location);
            String sep = target.getQuery() == null ? "?" : "&";
            HttpRequest.Builder put = HttpRequest.newBuilder(URI.create(target + sep + "digest=" + digest))
                    .timeout(Duration.ofSeconds(30))
                    .header("Content-Type", "application/octet-stream")
                    .PUT(HttpRequest.BodyPublishers.ofByteArray(blob));
            if (authorization != null) {
                put.header("Authorization", authorization);
            }
            r = http.send(put.build(), HttpResponse.BodyHandlers.ofString());
        }
        if (r.statusCode() != 201) {
            throw new IllegalStateException("blob upload answered " + r.statusCode() + ": " + r.body());
        }
        return digest;
    }

    private HttpRequest.Builder request(String path) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url() + path)).timeout(Duration.ofSeconds(30));
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return b;
    }

    static String sha256(byte[] bytes) {
        try {
            return "sha256:"
                    + HexFormat.of()
                            .formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Stops the registry (and waits until it has) and deletes its folder. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        TestDirs.delete(dir);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
