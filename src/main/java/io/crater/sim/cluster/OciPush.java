package io.crater.sim.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPOutputStream;

/**
 * Pushes a small OCI image through the distribution API, as a builder's push does: the blobs by {@code POST
 * /v2/<name>/blobs/uploads/} and a {@code PUT} of the upload's location with {@code ?digest=}, then {@code PUT
 * /v2/<name>/manifests/<tag>} with an OCI image manifest (a config and one layer: a tar.gz holding the Dockerfile).
 * A 401 is answered as a registry client does: {@code Basic} with the login of Docker's {@code config.json}, {@code
 * Bearer} with a token fetched from the realm for {@code repository:<name>:pull,push}.
 */
final class OciPush {

    private static final Pattern PARAM = Pattern.compile("(\\w+)=\"([^\"]*)\"");

    /** The image pushed: the manifest's digest and the sizes of what went up. */
    record Pushed(String digest, long layerBytes) {}

    /** A push the registry refused: what it answered. */
    static final class Refused extends Exception {
        Refused(String message) {
            super(message);
        }
    }

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final String base;
    private final String repository;
    /** The {@code Basic} credentials of the registry from {@code config.json}, base64; null: none. */
    private final String basic;

    private String authorization;

    OciPush(String registry, boolean plainHttp, String repository, String basic) {
        this.base = (plainHttp ? "http://" : "https://") + registry;
        this.repository = repository;
        this.basic = basic;
    }

    /** Pushes the image holding {@code dockerfile} as {@code tag}. */
    Pushed push(String tag, String dockerfile) throws IOException, InterruptedException, Refused {
        byte[] tar = tar("Dockerfile", dockerfile.getBytes(StandardCharsets.UTF_8));
        byte[] layer = gzip(tar);
        byte[] config = ("{\"architecture\":\"amd64\",\"os\":\"linux\",\"config\":{\"Labels\":"
                        + "{\"io.crater.simulated-build\":\"true\"}},\"rootfs\":{\"type\":\"layers\",\"diff_ids\":[\""
                        + sha256(tar) + "\"]},\"history\":[{\"created_by\":\"simulated build of the Dockerfile\"}]}")
                .getBytes(StandardCharsets.UTF_8);
        String configDigest = upload(config);
        String layerDigest = upload(layer);
        byte[] manifest = ("{\"schemaVersion\":2,\"mediaType\":\"application/vnd.oci.image.manifest.v1+json\","
                        + "\"config\":{\"mediaType\":\"application/vnd.oci.image.config.v1+json\",\"digest\":\""
                        + configDigest + "\",\"size\":" + config.length + "},\"layers\":[{\"mediaType\":"
                        + "\"application/vnd.oci.image.layer.v1.tar+gzip\",\"digest\":\"" + layerDigest
                        + "\",\"size\":" + layer.length + "}]}")
                .getBytes(StandardCharsets.UTF_8);
        HttpResponse<String> put = send(
                URI.create(base + "/v2/" + repository + "/manifests/" + tag),
                b -> b.header("Content-Type", "application/vnd.oci.image.manifest.v1+json")
                        .PUT(HttpRequest.BodyPublishers.ofByteArray(manifest)));
        if (put.statusCode() != 201) {
            throw refused("the manifest", put);
        }
        return new Pushed(put.headers().firstValue("Docker-Content-Digest").orElse(sha256(manifest)), layer.length);
    }

    private String upload(byte[] blob) throws IOException, InterruptedException, Refused {
        String digest = sha256(blob);
        HttpResponse<String> start = send(
                URI.create(base + "/v2/" + repository + "/blobs/uploads/"),
                b -> b.POST(HttpRequest.BodyPublishers.noBody()));
        if (start.statusCode() != 202) {
            throw refused("a blob upload", start);
        }
        URI location = URI.create(base + "/")
                .resolve(start.headers().firstValue("Location").orElseThrow(() -> new Refused("no upload location")));
        String sep = location.getQuery() == null ? "?" : "&";
        URI target = URI.create(location + sep + "digest=" + URLEncoder.encode(digest, StandardCharsets.UTF_8));
        HttpResponse<String> put = send(
                target,
                b -> b.header("Content-Type", "application/octet-stream")
                        .PUT(HttpRequest.BodyPublishers.ofByteArray(blob)));
        if (put.statusCode() != 201) {
            throw refused("a blob", put);
        }
        return digest;
    }

    private HttpResponse<String> send(URI uri, java.util.function.UnaryOperator<HttpRequest.Builder> how)
            throws IOException, InterruptedException, Refused {
        HttpResponse<String> r = http.send(request(uri, how), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 401 && authorization == null) {
            authorization = answer(r.headers().firstValue("WWW-Authenticate").orElse(""));
            r = http.send(request(uri, how), HttpResponse.BodyHandlers.ofString());
        }
        return r;
    }

    private HttpRequest request(URI uri, java.util.function.UnaryOperator<HttpRequest.Builder> how) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60));
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return how.apply(b).build();
    }

    /** The {@code Authorization} a challenge asks for, from the login; refused when there is none. */
    private String answer(String challenge) throws IOException, InterruptedException, Refused {
        if (basic == null) {
            throw new Refused("the registry asks for a login and the build has none (401)");
        }
        if (challenge.regionMatches(true, 0, "Basic", 0, 5)) {
            return "Basic " + basic;
        }
        Map<String, String> p = new java.util.HashMap<>();
        Matcher m = PARAM.matcher(challenge);
        while (m.find()) {
            p.put(m.group(1), m.group(2));
        }
        if (!challenge.regionMatches(true, 0, "Bearer", 0, 6) || p.get("realm") == null) {
            throw new Refused("the registry's challenge is not understood: " + challenge);
        }
        String query = "scope=" + URLEncoder.encode("repository:" + repository + ":pull,push", StandardCharsets.UTF_8)
                + (p.get("service") == null
                        ? ""
                        : "&service=" + URLEncoder.encode(p.get("service"), StandardCharsets.UTF_8));
        HttpResponse<String> t = http.send(
                HttpRequest.newBuilder(URI.create(p.get("realm") + "?" + query))
                        .timeout(Duration.ofSeconds(30))
                        .header("Authorization", "Basic " + basic)
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (t.statusCode() != 200) {
            throw new Refused("the registry's token service refused the login (" + t.statusCode() + ")");
        }
        JsonNode body = Serialization.jsonMapper().readTree(t.body());
        String token = body.path("token").asText(body.path("access_token").asText(""));
        return "Bearer " + token;
    }

    private static Refused refused(String what, HttpResponse<String> r) {
        String body = r.body() == null ? "" : r.body().strip();
        return new Refused("the registry refused " + what + " (" + r.statusCode() + ")"
                + (body.isEmpty() ? "" : ": " + (body.length() > 300 ? body.substring(0, 300) : body)));
    }

    /** A tar archive (ustar) of one regular file. */
    static byte[] tar(String name, byte[] content) {
        byte[] header = new byte[512];
        put(header, 0, name);
        put(header, 100, "0000644");
        put(header, 108, "0000000");
        put(header, 116, "0000000");
        put(header, 124, String.format("%011o", content.length));
        put(header, 136, String.format("%011o", 0));
        header[156] = '0';
        put(header, 257, "ustar");
        put(header, 263, "00");
        for (int i = 148; i < 156; i++) {
            header[i] = ' ';
        }
        long sum = 0;
        for (byte b : header) {
            sum += b & 0xff;
        }
        put(header, 148, String.format("%06o", sum));
        header[154] = 0;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(header);
        out.writeBytes(content);
        out.writeBytes(new byte[(512 - content.length % 512) % 512]);
        out.writeBytes(new byte[1024]);
        return out.toByteArray();
    }

    private static void put(byte[] header, int at, String text) {
        byte[] b = text.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(b, 0, header, at, b.length);
    }

    private static byte[] gzip(byte[] data) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(data);
        }
        return out.toByteArray();
    }

    static String sha256(byte[] bytes) {
        try {
            return "sha256:"
                    + HexFormat.of()
                            .formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
