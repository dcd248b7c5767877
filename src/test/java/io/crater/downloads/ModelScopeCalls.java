package io.crater.downloads;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** ModelScope's calls as the test hub ({@link HubServer}) answers them; paths after {@code /api/v1}. */
final class ModelScopeCalls {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ModelScopeCalls() {}

    static void handle(HubServer hub, HttpExchange x, String path, boolean mirror)
            throws IOException, InterruptedException {
        Map<String, String> q = query(x.getRequestURI().getRawQuery());
        String[] p = path.substring(1).split("/");
        // /{models|datasets}/{owner}/{name}[/...] or /datasets/{id}/repo/tree
        if (p.length >= 4 && p[0].equals("datasets") && p[2].equals("repo") && p[3].equals("tree")) {
            tree(hub, x, p[1], q);
            return;
        }
        if (p.length < 3 || !(p[0].equals("models") || p[0].equals("datasets"))) {
            reply(x, 404, Map.of("Code", 10010205, "Message", "not found"));
            return;
        }
        String kind = p[0].equals("models") ? "model" : "dataset";
        HubServer.Repo r = find(hub, x, kind, p[1] + "/" + p[2]);
        if (r == null) {
            return;
        }
        String rest = p.length == 3 ? "" : String.join("/", java.util.Arrays.copyOfRange(p, 3, p.length));
        switch (rest) {
            case "" -> reply(x, 200, ok(Map.of("Id", id(r), "Name", p[2])));
            case "commits" -> {
                String commit = r.branches.get(q.getOrDefault("Ref", "master"));
                if (commit == null) {
                    reply(x, 200, Map.of("Code", 10010205, "Message", "revision not found"));
                } else {
                    reply(x, 200, ok(Map.of("Commit", List.of(Map.of("Id", commit)))));
                }
            }
            case "revisions" -> {
                List<Map<String, Object>> branches = new ArrayList<>();
                r.branches.keySet().forEach(b -> branches.add(Map.of("Revision", b)));
                reply(x, 200, ok(Map.of("RevisionMap", Map.of("Branches", branches, "Tags", List.of()))));
            }
            case "repo/files" -> listing(x, r, q.get("Revision"), 1, Integer.MAX_VALUE);
            case "repo" -> file(x, r, q, mirror);
            default -> reply(x, 404, Map.of("Code", 10010205, "Message", "not found"));
        }
    }

    /** A numeric id for a dataset, as ModelScope gives one. */
    static String id(HubServer.Repo r) {
        return String.valueOf(Math.abs(r.name.toLowerCase(java.util.Locale.ROOT).hashCode()));
    }

    private static HubServer.Repo find(HubServer hub, HttpExchange x, String kind, String name) throws IOException {
        HubServer.Repo r = hub.repo(kind, name);
        if (r == null
                || r.token != null
                        && !("m_session_id=" + r.token)
                                .equals(x.getRequestHeaders().getFirst("Cookie"))) {
            reply(x, 401, Map.of("Code", 10010205, "Message", "the repository does not exist or is private"));
            return null;
        }
        return r;
    }

    private static void tree(HubServer hub, HttpExchange x, String id, Map<String, String> q) throws IOException {
        HubServer.Repo r = hub.byId(id);
        if (r == null) {
            reply(x, 404, Map.of("Code", 10010205, "Message", "no dataset " + id));
            return;
        }
        if (find(hub, x, "dataset", r.name) == null) {
            return;
        }
        listing(
                x,
                r,
                q.get("Revision"),
                Integer.parseInt(q.getOrDefault("PageNumber", "1")),
                Integer.parseInt(q.getOrDefault("PageSize", "100")));
    }

    /** One page of the files at a revision; the first listing moves the branch when the repository has a later commit. */
    private static void listing(HttpExchange x, HubServer.Repo r, String rev, int page, int size) throws IOException {
        Map<String, byte[]> files = rev == null ? null : r.at(rev);
        if (files == null) {
            reply(x, 404, Map.of("Code", 10010205, "Message", "no revision " + rev));
            return;
        }
        List<Map<String, Object>> out = new ArrayList<>();
        out.add(Map.of("Name", "sub", "Path", "sub", "Type", "tree", "Size", 0));
        out.add(Map.of("Name", ".gitattributes", "Path", ".gitattributes", "Type", "blob", "Size", 10));
        files.forEach((name, bytes) -> out.add(Map.of(
                "Name",
                name.substring(name.lastIndexOf('/') + 1),
                "Path",
                name,
                "Type",
                "blob",
                "Size",
                bytes.length,
                "Sha256",
                HubServer.sha256(bytes))));
        long from = (long) (page - 1) * size;
        List<Map<String, Object>> slice =
                out.subList((int) Math.min(from, out.size()), (int) Math.min(from + size, out.size()));
        reply(x, 200, ok(Map.of("Files", slice)));
        if (r.laterSha != null && !r.moved) {
            r.moved = true;
            r.branches.put("master", r.laterSha);
        }
    }

    private static void file(HttpExchange x, HubServer.Repo r, Map<String, String> q, boolean mirror)
            throws IOException, InterruptedException {
        Map<String, byte[]> files = r.at(q.getOrDefault("Revision", "master"));
        String name = q.get("FilePath");
        byte[] bytes = files == null || name == null ? null : files.get(name);
        if (bytes == null) {
            reply(x, 404, Map.of("Code", 10010205, "Message", "no file " + name));
            return;
        }
        if (!mirror && r.corrupt.containsKey(name)) {
            bytes = r.corrupt.get(name);
        }
        int from = 0;
        int to = bytes.length - 1;
        String range = x.getRequestHeaders().getFirst("Range");
        if (range != null && range.startsWith("bytes=")) {
            String[] ab = range.substring(6).split("-", -1);
            from = Math.min(bytes.length, Integer.parseInt(ab[0]));
            to = ab[1].isEmpty() ? to : Math.min(to, Integer.parseInt(ab[1]));
        }
        HubServer.body(x, r, name, bytes, from, to);
    }

    private static Map<String, Object> ok(Map<String, Object> data) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("Code", 200);
        m.put("Data", data);
        m.put("Message", "success");
        m.put("Success", true);
        return m;
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> q = new LinkedHashMap<>();
        if (raw != null) {
            for (String kv : raw.split("&")) {
                int eq = kv.indexOf('=');
                if (eq > 0) {
                    q.put(
                            URLDecoder.decode(kv.substring(0, eq), StandardCharsets.UTF_8),
                            URLDecoder.decode(kv.substring(eq + 1), StandardCharsets.UTF_8));
                }
            }
        }
        return q;
    }

    private static void reply(HttpExchange x, int status, Object body) throws IOException {
        HubServer.send(x, status, JSON.writeValueAsBytes(body));
    }
}
