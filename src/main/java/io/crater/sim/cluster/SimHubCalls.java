package io.crater.sim.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The HTTP calls a hub's client makes, per hub. Hugging Face's {@code huggingface-cli}: {@code HF_ENDPOINT}, {@code
 * HF_TOKEN} as a bearer token, the revision API for the files, {@code /[datasets/]{repo}/resolve/{rev}/{file}} for the
 * bytes. ModelScope's {@code modelscope download} (1.36/1.37): {@code --endpoint}, else {@code https://} + {@code
 * MODELSCOPE_DOMAIN}, else {@code https://www.modelscope.cn}; {@code MODELSCOPE_API_TOKEN} as the cookie {@code
 * m_session_id}; a model's revision checked against {@code /api/v1/models/{repo}/revisions} (branches and tags), its
 * files from {@code /api/v1/models/{repo}/repo/files?Revision=R&Recursive=True} and its bytes from {@code
 * /api/v1/models/{repo}/repo?Revision=R&FilePath=F}; a dataset's files from its id ({@code /api/v1/datasets/{repo}})
 * and the pages of {@code /api/v1/datasets/{id}/repo/tree}, its bytes from {@code
 * /api/v1/datasets/{repo}/repo?Source=SDK&Revision=R&FilePath=F&View=False}.
 */
final class SimHubCalls {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int PAGE_SIZE = 100;
    private static final Set<String> SKIPPED = Set.of(".gitignore", ".gitattributes");

    /** One file the client will fetch: its path, size (-1 unknown) and SHA-256 when the hub lists one. */
    record Listed(String path, long size, String sha256) {}

    /** Why the client stopped, in its words. */
    static final class Failure extends Exception {
        Failure(String message) {
            super(message, null, false, false);
        }
    }

    private final HubCommand cmd;
    private final String endpoint;
    private final String token;

    SimHubCalls(HubCommand cmd, Map<String, String> env) {
        this.cmd = cmd;
        boolean ms = modelscope();
        String ep = ms
                ? (cmd.endpoint() != null
                        ? cmd.endpoint()
                        : env.containsKey("MODELSCOPE_DOMAIN")
                                ? "https://" + env.get("MODELSCOPE_DOMAIN")
                                : "https://www.modelscope.cn")
                : env.getOrDefault("HF_ENDPOINT", "https://huggingface.co");
        this.endpoint = ep.endsWith("/") ? ep.substring(0, ep.length() - 1) : ep;
        String t = env.get(ms ? "MODELSCOPE_API_TOKEN" : "HF_TOKEN");
        this.token = t == null || t.isEmpty() ? null : t;
    }

    boolean modelscope() {
        return cmd.hub().equals("modelscope");
    }

    /** The files the command takes, in the hub's order. */
    List<Listed> list() throws Failure, InterruptedException {
        List<Listed> out = new ArrayList<>();
        if (!modelscope()) {
            String url = endpoint + "/api/" + (dataset() ? "datasets/" : "models/") + cmd.repo() + "/revision/"
                    + enc(cmd.revision()) + "?blobs=true";
            for (JsonNode f : json(url, "").path("siblings")) {
                String path = f.path("rfilename").asText("");
                if (!path.isEmpty() && cmd.takes(path)) {
                    out.add(new Listed(path, f.has("size") ? f.path("size").asLong() : -1, null));
                }
            }
            return out;
        }
        if (dataset()) {
            String id = json(endpoint + "/api/v1/datasets/" + cmd.repo(), "")
                    .path("Data")
                    .path("Id")
                    .asText("");
            for (int page = 1; ; page++) {
                JsonNode files = json(
                                endpoint + "/api/v1/datasets/" + enc(id) + "/repo/tree?Revision=" + enc(cmd.revision())
                                        + "&Root=/&Recursive=True&PageNumber=" + page + "&PageSize=" + PAGE_SIZE,
                                "")
                        .path("Data")
                        .path("Files");
                add(files, out);
                if (files.size() < PAGE_SIZE) {
                    return out;
                }
            }
        }
        checkRevision();
        add(
                json(
                                endpoint + "/api/v1/models/" + cmd.repo() + "/repo/files?Revision="
                                        + enc(cmd.revision()) + "&Recursive=True",
                                "")
                        .path("Data")
                        .path("Files"),
                out);
        return out;
    }

    /** As the client's {@code get_valid_revision_detail}: a model's revision must be one of its branches or tags. */
    private void checkRevision() throws Failure, InterruptedException {
        JsonNode map = json(endpoint + "/api/v1/models/" + cmd.repo() + "/revisions", "")
                .path("Data")
                .path("RevisionMap");
        for (String side : List.of("Branches", "Tags")) {
            for (JsonNode r : map.path(side)) {
                if (cmd.revision().equals(r.path("Revision").asText())) {
                    return;
                }
            }
        }
        throw new Failure("The model: " + cmd.repo() + " has no revision: " + cmd.revision() + " !");
    }

    private void add(JsonNode files, List<Listed> out) {
        for (JsonNode f : files) {
            String path = f.path("Path").asText("");
            if (path.isEmpty()
                    || "tree".equals(f.path("Type").asText())
                    || SKIPPED.contains(f.path("Name").asText(path))
                    || !cmd.takes(path)) {
                continue;
            }
            String sha = f.path("Sha256").asText("");
            out.add(new Listed(path, f.path("Size").asLong(-1), sha.isEmpty() ? null : sha));
        }
    }

    /** Where the client fetches a file's bytes. */
    String fileUrl(String path) {
        if (!modelscope()) {
            return endpoint + (dataset() ? "/datasets/" : "/") + cmd.repo() + "/resolve/" + cmd.revision() + "/" + path;
        }
        return dataset()
                ? endpoint + "/api/v1/datasets/" + cmd.repo() + "/repo?Source=SDK&Revision=" + enc(cmd.revision())
                        + "&FilePath=" + enc(path) + "&View=False"
                : endpoint + "/api/v1/models/" + cmd.repo() + "/repo?Revision=" + enc(cmd.revision()) + "&FilePath="
                        + enc(path);
    }

    /** A GET as the client sends it: its credential (when set) and the byte range it wants. */
    HttpResponse<InputStream> get(String url, String range) throws Failure, InterruptedException {
        HttpRequest.Builder req = HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(60))
                .GET();
        if (token != null) {
            if (modelscope()) {
                req.header("Cookie", "m_session_id=" + token);
            } else {
                req.header("Authorization", "Bearer " + token);
            }
        }
        if (!range.isEmpty()) {
            req.header("Range", range);
        }
        try {
            return HttpClient.newBuilder()
                    .connectTimeout(Duration.ofSeconds(10))
                    .followRedirects(HttpClient.Redirect.NORMAL)
                    .build()
                    .send(req.build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException | IllegalArgumentException e) {
            throw new Failure("the hub at " + url + " cannot be reached: " + e.getMessage());
        }
    }

    private JsonNode json(String url, String range) throws Failure, InterruptedException {
        HttpResponse<InputStream> res = get(url, range);
        try (InputStream in = res.body()) {
            if (res.statusCode() != 200) {
                throw new Failure(
                        "the hub answered HTTP " + res.statusCode() + " for " + cmd.repo() + "@" + cmd.revision());
            }
            JsonNode root = JSON.readTree(in);
            if (modelscope() && root.path("Code").asInt(0) != 200) {
                throw new Failure("the hub answered " + root.path("Code").asText() + " ("
                        + root.path("Message").asText() + ") for " + cmd.repo() + "@" + cmd.revision());
            }
            return root;
        } catch (IOException e) {
            throw new Failure("the hub's file list could not be read: " + e.getMessage());
        }
    }

    private boolean dataset() {
        return cmd.repoType().equals("dataset");
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
