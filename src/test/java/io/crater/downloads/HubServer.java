package io.crater.downloads;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A small model hub for tests, since no Hugging Face hub can be installed here and there is no internet: it answers
 * the two calls Crater and the hub client make, {@code GET /api/{models|datasets}/{repo}/revision/{rev}} (the commit
 * and its files: {@code rfilename}, {@code size}, {@code lfs.sha256}) and {@code GET /[datasets/]{repo}/resolve/{sha}/{file}}
 * (the bytes, honouring {@code Range}), from repositories a test makes. The same repositories are served under a
 * second address ({@code /mirror}), which may serve a file's bytes differently. A file may be held after its first
 * half until the test opens its gate, so a download stays running with part of its bytes present.
 *
 * <p>No ModelScope server can be installed here either, so it also answers ModelScope's calls (those of its client,
 * modelscope 1.36/1.37) under {@code /api/v1/}: a revision's commit ({@code /{models|datasets}/{repo}/commits?Ref=}), a
 * model's branches and tags ({@code /models/{repo}/revisions}), a model's files ({@code /models/{repo}/repo/files}), a
 * dataset's id ({@code /datasets/{repo}}) and its files in pages ({@code /datasets/{id}/repo/tree}), and a file's
 * bytes ({@code /{models|datasets}/{repo}/repo?...&FilePath=}, honouring {@code Range: bytes=a-b}), every answer with
 * {@code Code} 200; a repository with a token wants it as the cookie {@code m_session_id}. A ModelScope repository
 * may move its branch to a later commit once its files were first listed.
 */
final class HubServer {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static HubServer instance;

    /** A repository at one commit: its files, which of them are LFS files, the token it wants (null: none). */
    static final class Repo {
        final String kind;
        final String name;
        final String sha;
        final Map<String, String> branches = new ConcurrentHashMap<>();
        final Map<String, byte[]> files = new LinkedHashMap<>();
        final Set<String> lfs = ConcurrentHashMap.newKeySet();
        /** Bytes the main address serves instead of the listed ones (the mirror serves the listed ones). */
        final Map<String, byte[]> corrupt = new ConcurrentHashMap<>();

        final Map<String, CountDownLatch> gates = new ConcurrentHashMap<>();
        volatile String token;
        /** A later commit (ModelScope): its files, and whether the branch has moved to it. */
        final Map<String, byte[]> later = new LinkedHashMap<>();

        volatile String laterSha;
        volatile boolean moved;

        Repo(String kind, String name, String sha) {
            this.kind = kind;
            this.name = name;
            this.sha = sha;
            branches.put("main", sha);
        }

        Repo file(String path, byte[] bytes, boolean isLfs) {
            files.put(path, bytes);
            if (isLfs) {
                lfs.add(path);
            }
            return this;
        }

        /** The files at a commit or branch (null: no such revision). */
        Map<String, byte[]> at(String rev) {
            String commit = branches.getOrDefault(rev, rev);
            return commit.equals(sha) ? files : commit.equals(laterSha) ? later : null;
        }

        /** Holds {@code path} after its first half until {@link #open}. */
        Repo gate(String path) {
            gates.put(path, new CountDownLatch(1));
            return this;
        }

        void open(String path) {
            CountDownLatch g = gates.remove(path);
            if (g != null) {
                g.countDown();
            }
        }
    }

    private final HttpServer server;
    private final Map<String, Repo> repos = new ConcurrentHashMap<>();
    /** Every request seen: method, path and query, the Authorization and Range headers. */
    final List<String> requests = new CopyOnWriteArrayList<>();

    private HubServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        server.start();
    }

    static synchronized HubServer get() {
        if (instance == null) {
            try {
                instance = new HubServer();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
        return instance;
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    Repo add(Repo r) {
        repos.put(r.kind + ":" + r.name.toLowerCase(java.util.Locale.ROOT), r);
        return r;
    }

    static byte[] bytes(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) ((i * 31 + seed * 7) % 251);
        }
        return b;
    }

    static String sha256(byte[] b) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private void handle(HttpExchange x) throws IOException {
        String path = URLDecoder.decode(x.getRequestURI().getRawPath(), StandardCharsets.UTF_8);
        requests.add(x.getRequestMethod() + " " + x.getRequestURI() + " auth="
                + x.getRequestHeaders().getFirst("Authorization") + " cookie="
                + x.getRequestHeaders().getFirst("Cookie") + " range="
                + x.getRequestHeaders().getFirst("Range"));
        boolean mirror = path.startsWith("/mirror/");
        if (mirror) {
            path = path.substring("/mirror".length());
        }
        try {
            if (path.startsWith("/api/v1/")) {
                ModelScopeCalls.handle(this, x, path.substring("/api/v1".length()), mirror);
            } else if (path.startsWith("/api/models/") || path.startsWith("/api/datasets/")) {
                revision(x, path);
            } else if (path.contains("/resolve/")) {
                file(x, path, mirror);
            } else {
                send(x, 404, "{\"error\":\"not found\"}".getBytes(StandardCharsets.UTF_8));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            x.close();
        }
    }

    /** The dataset of a ModelScope dataset id. */
    Repo byId(String id) {
        return repos.values().stream()
                .filter(r -> r.kind.equals("dataset") && ModelScopeCalls.id(r).equals(id))
                .findFirst()
                .orElse(null);
    }

    Repo repo(String kind, String name) {
        return repos.get(kind + ":" + name.toLowerCase(java.util.Locale.ROOT));
    }

    private Repo find(HttpExchange x, String kind, String name) throws IOException {
        Repo r = repos.get(kind + ":" + name.toLowerCase(java.util.Locale.ROOT));
        if (r == null
                || r.token != null
                        && !("Bearer " + r.token).equals(x.getRequestHeaders().getFirst("Authorization"))) {
            // As Hugging Face answers for a repository it does not show the caller.
            send(x, 401, "{\"error\":\"Repository not found\"}".getBytes(StandardCharsets.UTF_8));
            return null;
        }
        return r;
    }

    private void revision(HttpExchange x, String path) throws IOException {
        String kind = path.startsWith("/api/models/") ? "model" : "dataset";
        String rest = path.substring(kind.equals("model") ? "/api/models/".length() : "/api/datasets/".length());
        int at = rest.indexOf("/revision/");
        Repo r = at < 0 ? null : find(x, kind, rest.substring(0, at));
        if (r == null) {
            return;
        }
        String rev = rest.substring(at + "/revision/".length());
        String sha = r.branches.getOrDefault(rev, rev.equals(r.sha) ? r.sha : null);
        if (sha == null) {
            send(x, 404, "{\"error\":\"Invalid rev id\"}".getBytes(StandardCharsets.UTF_8));
            return;
        }
        List<Map<String, Object>> siblings = new ArrayList<>();
        r.files.forEach((name, bytes) -> {
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("rfilename", name);
            s.put("size", bytes.length);
            if (r.lfs.contains(name)) {
                s.put("lfs", Map.of("sha256", sha256(bytes), "size", bytes.length, "pointerSize", 134));
            }
            siblings.add(s);
        });
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", r.name);
        body.put("sha", sha);
        body.put("siblings", siblings);
        send(x, 200, JSON.writeValueAsBytes(body));
    }

    private void file(HttpExchange x, String path, boolean mirror) throws IOException, InterruptedException {
        boolean dataset = path.startsWith("/datasets/");
        String rest = dataset ? path.substring("/datasets/".length()) : path.substring(1);
        int at = rest.indexOf("/resolve/");
        Repo r = find(x, dataset ? "dataset" : "model", rest.substring(0, at));
        if (r == null) {
            return;
        }
        String[] shaAndFile = rest.substring(at + "/resolve/".length()).split("/", 2);
        byte[] bytes = r.files.get(shaAndFile[1]);
        if (bytes == null || !shaAndFile[0].equals(r.sha)) {
            send(x, 404, new byte[0]);
            return;
        }
        if (!mirror && r.corrupt.containsKey(shaAndFile[1])) {
            bytes = r.corrupt.get(shaAndFile[1]);
        }
        int from = 0;
        String range = x.getRequestHeaders().getFirst("Range");
        if (range != null && range.startsWith("bytes=") && range.endsWith("-")) {
            from = Math.min(bytes.length, Integer.parseInt(range.substring(6, range.length() - 1)));
        }
        x.getResponseHeaders().set("Content-Type", "application/octet-stream");
        if (from > 0) {
            x.getResponseHeaders()
                    .set("Content-Range", "bytes " + from + "-" + (bytes.length - 1) + "/" + bytes.length);
        }
        x.sendResponseHeaders(from > 0 ? 206 : 200, bytes.length - from);
        try (OutputStream out = x.getResponseBody()) {
            int half = bytes.length / 2;
            CountDownLatch gate = r.gates.get(shaAndFile[1]);
            if (gate != null && from < half) {
                out.write(bytes, from, half - from);
                out.flush();
                gate.await(120, TimeUnit.SECONDS);
                out.write(bytes, half, bytes.length - half);
            } else {
                out.write(bytes, from, bytes.length - from);
            }
        }
    }

    /** Writes {@code bytes} from {@code from} to {@code to} (inclusive), holding at the half while the gate is shut. */
    static void body(HttpExchange x, Repo r, String file, byte[] bytes, int from, int to)
            throws IOException, InterruptedException {
        x.getResponseHeaders().set("Content-Type", "application/octet-stream");
        if (from > 0) {
            x.getResponseHeaders().set("Content-Range", "bytes " + from + "-" + to + "/" + bytes.length);
        }
        x.sendResponseHeaders(from > 0 ? 206 : 200, to + 1 - from);
        try (OutputStream out = x.getResponseBody()) {
            int half = bytes.length / 2;
            CountDownLatch gate = r.gates.get(file);
            if (gate != null && from < half) {
                out.write(bytes, from, half - from);
                out.flush();
                gate.await(120, TimeUnit.SECONDS);
                out.write(bytes, half, to + 1 - half);
            } else {
                out.write(bytes, from, to + 1 - from);
            }
        }
    }

    static void send(HttpExchange x, int status, byte[] body) throws IOException {
        x.getResponseHeaders().set("Content-Type", "application/json");
        x.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            try (OutputStream out = x.getResponseBody()) {
                out.write(body);
            }
        }
    }
}
