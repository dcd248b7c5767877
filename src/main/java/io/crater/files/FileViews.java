package io.crater.files;

import java.time.Instant;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** What the file API answers and takes. */
public final class FileViews {

    private FileViews() {}

    /**
     * One entry of a folder.
     *
     * @param type {@code folder}, {@code file} or {@code link} (a link is shown, never followed)
     * @param size bytes of a file, 0 otherwise
     */
    @Schema(name = "FileEntry")
    public record Entry(String name, String path, String type, long size, Instant modified) {}

    /** One page of a folder: folders first, then by name; {@code nextCursor} null on the last page. */
    @Schema(name = "FileListing")
    public record Listing(String space, String path, List<Entry> items, String nextCursor, int total) {}

    /** A space the caller may see, with what they may do, what it holds and its quota (-1: unlimited). */
    @Schema(name = "FileSpace")
    public record SpaceView(
            String name, String kind, String access, long usedBytes, long usedFiles, long maxBytes, long maxFiles) {}

    /** An entry of a space's trash. */
    public record TrashEntry(
            long id, String path, String type, long bytes, long files, Instant deletedAt, Instant expiresAt) {}

    /**
     * A change asked of a path: {@code mkdir}, {@code move} or {@code copy}.
     *
     * @param to the destination path (move, copy)
     * @param toSpace the destination space (move, copy), the same space when absent
     * @param overwrite whether an existing file at the destination may be replaced
     */
    @Schema(name = "FileChange")
    public record Change(String action, String to, String toSpace, Boolean overwrite) {}

    /** A quota a platform admin sets on a space; -1 for unlimited. */
    public record SetQuota(Long maxBytes, Long maxFiles) {}
}
