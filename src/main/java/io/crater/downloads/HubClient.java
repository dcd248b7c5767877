package io.crater.downloads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.crater.platform.ApiException;
import io.crater.platform.Problem;
import io.crater.policy.HubDownloads;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Asks a hub what a revision is (ModelScope's calls: {@link ModelScopeClient}): Hugging Face's {@code GET {endpoint}/api/models/{repo}/revision/{rev}?blobs=true}
 * ({@code /api/datasets/...} for datasets) answers the commit ({@code sha}) and its files ({@code siblings}:
 * {@code rfilename}, {@code size}, {@code lfs.sha256}). The token, when given, goes into the {@code Authorization}
 * header only. Blocking: call from a worker thread.
 */
@ApplicationScoped
class HubClient {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    DownloadsConfig config;

    /** A revision resolved: its commit and its files. */
    record Resolved(String sha, List<HubDownloads.HubFile> files) {}

    @Inject
    ModelScopeClient modelscope;

    /** The revision at {@code hub} (Hugging Face's or ModelScope's calls, docs/assets.md "Resolving"). */
    Resolved resolve(String hub, String endpoint, String kind, String repository, String revision, String token) {
        if ("modelscope".equals(hub)) {
            return modelscope.resolve(endpoint, kind, repository, revision, token);
        }
        String url = base(endpoint) + "/api/" + (kind.equals("dataset") ? "datasets/" : "models/") + repository
                + "/revision/" + URLEncoder.encode(revision, StandardCharsets.UTF_8) + "?blobs=true";
        HttpResponse<String> res =
                get(url, endpoint, token == null ? null : "Authorization", token == null ? null : "Bearer " + token);
        return switch (res.statusCode()) {
            case 200 -> parse(res.body(), endpoint);
            case 401, 403, 404 -> throw refused(res.statusCode(), repository, revision, token != null);
            default -> throw unreachable(endpoint, "HTTP " + res.statusCode());
        };
    }

    /** One GET of the hub's JSON API, with one header when {@code name} is not null. */
    HttpResponse<String> get(String url, String endpoint, String name, String value) {
        HttpRequest.Builder req = HttpRequest.newBuilder(URI.create(url))
                .timeout(config.hubTimeout())
                .header("Accept", "application/json")
                .GET();
        if (name != null) {
            req.header(name, value);
        }
        try {
            return HttpClient.newBuilder()
                    .connectTimeout(config.hubTimeout())
                    .followRedirects(HttpClient.Redirect.NORMAL)
                    .build()
                    .send(req.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException | IllegalArgumentException e) {
            throw unreachable(endpoint, e.getClass().getSimpleName());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unreachable(endpoint, "interrupted");
        }
    }

    /** The endpoint without a trailing {@code /}. */
    static String base(String endpoint) {
        return endpoint.endsWith("/") ? endpoint.substring(0, endpoint.length() - 1) : endpoint;
    }

    private static Resolved parse(String body, String endpoint) {
        try {
            JsonNode root = JSON.readTree(body);
            String sha = root.path("sha").asText("");
            if (!HubDownloads.isSha(sha)) {
                throw unreachable(endpoint, "the answer names no commit");
            }
            List<HubDownloads.HubFile> files = new ArrayList<>();
            for (JsonNode f : root.path("siblings")) {
                String path = f.path("rfilename").asText("");
                if (path.isEmpty()
                        || path.startsWith("/")
                        || List.of(path.split("/")).contains("..")) {
                    continue; // never a place outside the target
                }
                JsonNode lfs = f.path("lfs");
                long size = f.has("size")
                        ? f.path("size").asLong()
                        : lfs.path("size").asLong(0);
                String sha256 = lfs.hasNonNull("sha256") ? lfs.path("sha256").asText() : null;
                files.add(new HubDownloads.HubFile(path, size, sha256));
            }
            return new Resolved(sha, files);
        } catch (IOException e) {
            throw unreachable(endpoint, "the answer is not JSON");
        }
    }

    static ApiException refused(int status, String repository, String revision, boolean withToken) {
        String why = status == 404 || !withToken
                ? "the hub has no repository '" + repository + "' with revision '" + revision + "'"
                        + (withToken ? "" : " that it shows without a credential (a gated or private one needs one)")
                : "the hub refused the credential for '" + repository + "' (HTTP " + status + ")";
        return ApiException.badRequest(
                "HubRefused",
                why,
                List.of(new Problem.FieldError(status == 404 || !withToken ? "repository" : "credential", why)));
    }

    static ApiException unreachable(String endpoint, String why) {
        return new ApiException(
                502,
                "HubUnreachable",
                "Bad gateway",
                "the hub at " + endpoint + " did not answer as a hub does (" + why + ")",
                null,
                null,
                null);
    }
}
