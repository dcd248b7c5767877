package io.crater.downloads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.crater.platform.ApiException;
import io.crater.platform.Problem;
import io.crater.policy.HubDownloads;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Asks ModelScope what a revision is, with the calls its own client makes (modelscope 1.36/1.37, {@code HubApi}): the
 * commit from {@code GET {endpoint}/api/v1/{models|datasets}/{repo}/commits?Ref={rev}&PageNumber=1&PageSize=1}
 * ({@code Data.Commit[0].Id}); a model's files from {@code GET {endpoint}/api/v1/models/{repo}/repo/files?Revision={rev}
 * &Recursive=True} ({@code Data.Files}: {@code Path}, {@code Type}, {@code Size}, {@code Sha256}); a dataset's from
 * its hub id ({@code GET {endpoint}/api/v1/datasets/{repo}}, {@code Data.Id}) and the pages of {@code GET
 * {endpoint}/api/v1/datasets/{id}/repo/tree?Revision={rev}&Root=/&Recursive=True&PageNumber={n}&PageSize=100}. Every
 * answer carries {@code Code} 200 when it is one. The token goes as the client sends it, the cookie {@code
 * m_session_id}, and nowhere else. Blocking: call from a worker thread.
 */
@ApplicationScoped
class ModelScopeClient {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The page size the client asks a dataset's files in. */
    static final int PAGE_SIZE = 100;

    /** At most this many pages of a dataset's files are read (100,000 files). */
    private static final int MAX_PAGES = 1000;

    /** Files the client leaves out of a model's listing. */
    private static final Set<String> SKIPPED = Set.of(".gitignore", ".gitattributes");

    @Inject
    HubClient http;

    HubClient.Resolved resolve(String endpoint, String kind, String repository, String revision, String token) {
        String base = HubClient.base(endpoint);
        String rev = URLEncoder.encode(revision, StandardCharsets.UTF_8);
        String plural = kind.equals("dataset") ? "datasets" : "models";
        JsonNode commits = call(
                base + "/api/v1/" + plural + "/" + repository + "/commits?Ref=" + rev + "&PageNumber=1&PageSize=1",
                endpoint,
                repository,
                revision,
                token);
        JsonNode first = commits.path("Data").path("Commit").path(0);
        if (first.isMissingNode()) {
            String why = "ModelScope has no revision '" + revision + "' of '" + repository + "'";
            throw ApiException.badRequest("HubRefused", why, List.of(new Problem.FieldError("revision", why)));
        }
        String sha = first.path("Id").asText("");
        if (!HubDownloads.isSha(sha)) {
            throw HubClient.unreachable(endpoint, "the answer names no commit");
        }
        List<HubDownloads.HubFile> files = new ArrayList<>();
        if (kind.equals("dataset")) {
            datasetFiles(base, endpoint, repository, revision, rev, token, files);
        } else {
            add(
                    call(
                                    base + "/api/v1/models/" + repository + "/repo/files?Revision=" + rev
                                            + "&Recursive=True",
                                    endpoint,
                                    repository,
                                    revision,
                                    token)
                            .path("Data")
                            .path("Files"),
                    files);
        }
        return new HubClient.Resolved(sha, files);
    }

    /** A dataset's files, page by page (its hub id first); refused past {@link #MAX_PAGES} full pages. */
    private void datasetFiles(
            String base,
            String endpoint,
            String repository,
            String revision,
            String rev,
            String token,
            List<HubDownloads.HubFile> files) {
        String id = call(base + "/api/v1/datasets/" + repository, endpoint, repository, revision, token)
                .path("Data")
                .path("Id")
                .asText("");
        if (id.isEmpty()) {
            throw HubClient.unreachable(endpoint, "the answer names no dataset id");
        }
        for (int page = 1; page <= MAX_PAGES; page++) {
            JsonNode list = call(
                            base + "/api/v1/datasets/" + URLEncoder.encode(id, StandardCharsets.UTF_8)
                                    + "/repo/tree?Revision=" + rev + "&Root=/&Recursive=True&PageNumber=" + page
                                    + "&PageSize=" + PAGE_SIZE,
                            endpoint,
                            repository,
                            revision,
                            token)
                    .path("Data")
                    .path("Files");
            add(list, files);
            if (list.size() < PAGE_SIZE) {
                break;
            }
            if (page == MAX_PAGES) {
                // Never a download of part of a dataset taken for the whole of it.
                String why = "'" + repository + "' has more than " + MAX_PAGES * PAGE_SIZE
                        + " files, more than a download from ModelScope takes";
                throw ApiException.badRequest("HubRefused", why, List.of(new Problem.FieldError("repository", why)));
            }
        }
    }

    /** The files of one listing: blobs only, never a place outside the target. */
    private static void add(JsonNode list, List<HubDownloads.HubFile> into) {
        for (JsonNode f : list) {
            String path = f.path("Path").asText("");
            if ("tree".equals(f.path("Type").asText())
                    || path.isEmpty()
                    || path.startsWith("/")
                    || List.of(path.split("/")).contains("..")
                    || SKIPPED.contains(f.path("Name").asText(path))) {
                continue;
            }
            String sha256 = f.path("Sha256").asText("");
            into.add(new HubDownloads.HubFile(path, f.path("Size").asLong(0), sha256.isEmpty() ? null : sha256));
        }
    }

    /** One call: its JSON when HTTP 200 with {@code Code} 200; refused or unreachable otherwise. */
    private JsonNode call(String url, String endpoint, String repository, String revision, String token) {
        HttpResponse<String> res = http.get(
                url, endpoint, token == null ? null : "Cookie", token == null ? null : "m_session_id=" + token);
        if (res.statusCode() == 401 || res.statusCode() == 403 || res.statusCode() == 404) {
            throw HubClient.refused(res.statusCode(), repository, revision, token != null);
        }
        if (res.statusCode() != 200) {
            throw HubClient.unreachable(endpoint, "HTTP " + res.statusCode());
        }
        JsonNode root;
        try {
            root = JSON.readTree(res.body());
        } catch (IOException e) {
            throw HubClient.unreachable(endpoint, "the answer is not JSON");
        }
        if (root.path("Code").asInt(0) != 200) {
            String why = "ModelScope has no repository '" + repository + "' with revision '" + revision + "'"
                    + (token == null ? " that it shows without a credential" : "") + " ("
                    + root.path("Message").asText("code " + root.path("Code").asText()) + ")";
            throw ApiException.badRequest("HubRefused", why, List.of(new Problem.FieldError("repository", why)));
        }
        return root;
    }
}
