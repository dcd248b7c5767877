package io.crater.assets;

import java.time.Instant;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** What the datasets-and-models API reads and answers. */
public final class AssetViews {

    private AssetViews() {}

    /**
     * A dataset or a model: where it lies (a space and a path in it, as the file API names them), what it holds
     * (measured on creation and on refresh), how it may be used, and what the caller may do with it.
     */
    @Schema(name = "Asset")
    public record Asset(
            String id,
            String kind,
            String name,
            String owner,
            String description,
            String space,
            String path,
            String targetType,
            long sizeBytes,
            long files,
            Instant measuredAt,
            String licence,
            String source,
            String revision,
            String visibility,
            String account,
            List<String> tags,
            Instant createdAt,
            Instant updatedAt,
            boolean mayEdit) {}

    /** One page of entries, newest first. */
    @Schema(name = "AssetPage")
    public record AssetPage(List<Asset> items, String nextCursor) {}

    /**
     * A new entry. {@code space} as the file API names it ({@code user} is one's own, {@code account:<slug>},
     * {@code public}); {@code visibility} {@code private} (the default), {@code account} (with {@code account})
     * or {@code public}.
     */
    @Schema(name = "CreateAsset")
    public record CreateAsset(
            String kind,
            String name,
            String description,
            String space,
            String path,
            String licence,
            String source,
            String revision,
            String visibility,
            String account,
            List<String> tags) {}

    /** Changes to an entry: a field left out (null) stays; {@code space} and {@code path} change together. */
    @Schema(name = "UpdateAsset")
    public record UpdateAsset(
            String name,
            String description,
            String space,
            String path,
            String licence,
            String source,
            String revision,
            String visibility,
            String account,
            List<String> tags) {}
}
