package io.crater.downloads;

import java.time.Instant;
import java.util.List;

/** Request and response records of the downloads API (docs/assets.md, downloads). */
public final class DownloadViews {

    private DownloadViews() {}

    /**
     * A download to start: a dataset or model of a hub's repository at a revision (a branch, tag or commit; {@code
     * main} when absent), the files matching {@code include} and not {@code exclude}, into {@code path} of {@code space}
     * (the caller's own when absent), catalogued as {@code name} with {@code visibility} (and {@code account}). {@code
     * credential}: one of the caller's credentials of kind huggingface, sent to the hub as a bearer token.
     */
    public record CreateDownload(
            String kind,
            String hub,
            String repository,
            String revision,
            List<String> include,
            List<String> exclude,
            String credential,
            String name,
            String space,
            String path,
            String visibility,
            String account) {}

    /** A retry, optionally from another address of the hub (one of its configured mirrors). */
    public record RetryDownload(String hub, String endpoint) {}

    /**
     * A download as shown. {@code bytesDone}/{@code bytesTotal} in bytes and {@code filesDone}/{@code files}: what is in
     * the target folder now against the revision's file list. {@code deduplicated}: this answer is an earlier download
     * of the same thing, nothing new was started.
     */
    public record Download(
            String id,
            String kind,
            String hub,
            String endpoint,
            String repository,
            String revision,
            String sha,
            List<String> include,
            List<String> exclude,
            String credential,
            String name,
            String owner,
            String space,
            String path,
            String visibility,
            String account,
            String state,
            String reason,
            String message,
            List<String> warnings,
            long bytesDone,
            long bytesTotal,
            int filesDone,
            int files,
            int percent,
            String job,
            String asset,
            boolean deduplicated,
            boolean mayEdit,
            Instant createdAt,
            Instant updatedAt,
            Instant finishedAt) {

        Download asDuplicate() {
            return new Download(
                    id,
                    kind,
                    hub,
                    endpoint,
                    repository,
                    revision,
                    sha,
                    include,
                    exclude,
                    credential,
                    name,
                    owner,
                    space,
                    path,
                    visibility,
                    account,
                    state,
                    reason,
                    message,
                    warnings,
                    bytesDone,
                    bytesTotal,
                    filesDone,
                    files,
                    percent,
                    job,
                    asset,
                    true,
                    mayEdit,
                    createdAt,
                    updatedAt,
                    finishedAt);
        }
    }

    public record DownloadPage(List<Download> items) {}
}
