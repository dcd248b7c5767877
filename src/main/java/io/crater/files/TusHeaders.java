package io.crater.files;

import io.crater.platform.ApiException;
import io.crater.platform.Problem;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The tus 1.0 headers Crater reads and writes, parsed without touching anything: bad input is a 4xx here. */
final class TusHeaders {

    static final String VERSION = "1.0.0";
    static final String EXTENSIONS = "creation,termination,expiration,checksum";
    static final String OFFSET_TYPE = "application/offset+octet-stream";

    /** Checksum algorithms by their tus name, with the JDK's name. */
    static final Map<String, String> ALGORITHMS = Map.of("sha1", "SHA-1", "sha256", "SHA-256", "md5", "MD5");

    static final String ALGORITHM_LIST = "sha1,sha256,md5";

    private TusHeaders() {}

    /** Where an upload goes, from its {@code Upload-Metadata}. */
    record Target(String space, String path, boolean overwrite) {}

    /** A PATCH's {@code Upload-Checksum}: the algorithm and the digest its body must have. */
    record Checksum(String algorithm, byte[] expected) {
        MessageDigest digest() {
            try {
                return MessageDigest.getInstance(ALGORITHMS.get(algorithm));
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** 412 unless the request speaks tus 1.0.0. */
    static void resumable(String header) {
        if (!VERSION.equals(header == null ? null : header.trim())) {
            throw new ApiException(
                    412,
                    "UnsupportedTusVersion",
                    "Precondition failed",
                    "send Tus-Resumable: " + VERSION + " (the one version supported)",
                    null,
                    null,
                    null);
        }
    }

    /** A non-negative byte count from a header, or a 400 naming it. */
    static long bytes(String name, String value) {
        try {
            long n = value == null ? -1 : Long.parseLong(value.trim());
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw ApiException.badRequest(
                "InvalidRequest",
                name + " must be a number of bytes",
                List.of(new Problem.FieldError(name, "a non-negative integer")));
    }

    /** {@code Upload-Metadata}: comma-separated {@code key base64value} pairs (a value may be left out). */
    static Map<String, String> metadata(String header) {
        Map<String, String> out = new LinkedHashMap<>();
        if (header == null || header.isBlank()) {
            return out;
        }
        for (String pair : header.split(",")) {
            String[] kv = pair.trim().split(" ", -1);
            if (kv.length > 2 || kv[0].isEmpty() || out.containsKey(kv[0])) {
                throw invalidMetadata("each pair is a unique key and at most one base64 value");
            }
            try {
                out.put(
                        kv[0],
                        kv.length == 1 ? "" : new String(Base64.getDecoder().decode(kv[1]), StandardCharsets.UTF_8));
            } catch (IllegalArgumentException e) {
                throw invalidMetadata("the value of " + kv[0] + " is not base64");
            }
        }
        return out;
    }

    /**
     * The target of an upload: {@code space} (required), {@code path} the file's path in it, or a folder ending in
     * {@code /} (or nothing, the root) that {@code filename} is put in; {@code overwrite} {@code true} to replace.
     */
    static Target target(Map<String, String> meta) {
        String space = meta.get("space");
        if (space == null || space.isBlank()) {
            throw invalidMetadata("space is required (user, account:<slug> or public)");
        }
        String path = meta.getOrDefault("path", "");
        if (path.isEmpty() || path.endsWith("/")) {
            String name = meta.get("filename");
            if (name == null || name.isEmpty()) {
                throw invalidMetadata("path names a folder, so filename is required");
            }
            path = path + "/" + name;
        }
        return new Target(space.trim(), path, "true".equals(meta.get("overwrite")));
    }

    private static ApiException invalidMetadata(String why) {
        return ApiException.badRequest(
                "InvalidRequest", "Upload-Metadata: " + why, List.of(new Problem.FieldError("Upload-Metadata", why)));
    }

    /** {@code Upload-Checksum: <algorithm> <base64 digest>}, or null when there is none. */
    static Checksum checksum(String header) {
        if (header == null) {
            return null;
        }
        String[] parts = header.trim().split(" ");
        String algorithm = parts[0].toLowerCase(Locale.ROOT);
        if (!ALGORITHMS.containsKey(algorithm)) {
            throw ApiException.badRequest(
                    "UnsupportedChecksumAlgorithm",
                    "Upload-Checksum: the algorithms supported are " + ALGORITHM_LIST,
                    List.of(new Problem.FieldError("Upload-Checksum", "one of " + ALGORITHM_LIST)));
        }
        try {
            if (parts.length != 2) {
                throw new IllegalArgumentException();
            }
            return new Checksum(algorithm, Base64.getDecoder().decode(parts[1]));
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(
                    "InvalidRequest",
                    "Upload-Checksum is '<algorithm> <base64 digest>'",
                    List.of(new Problem.FieldError("Upload-Checksum", "'<algorithm> <base64 digest>'")));
        }
    }

    /** {@code Upload-Expires}: an HTTP date (RFC 9110). */
    static String date(Instant at) {
        return DateTimeFormatter.RFC_1123_DATE_TIME.format(at.atOffset(ZoneOffset.UTC));
    }
}
