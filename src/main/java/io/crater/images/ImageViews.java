package io.crater.images;

import java.time.Instant;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** What the image catalogue's API reads and answers. */
public final class ImageViews {

    private ImageViews() {}

    /**
     * A container image of the catalogue: a registry and repository with some tags, what it is built for (CUDA
     * version, CPU architectures, accelerator vendors, job kinds), who sees it, the registry's answer to the last
     * validation of each tag, and whether the caller may change it.
     */
    @Schema(name = "Image")
    public record Image(
            String id,
            String reference,
            String registry,
            String repository,
            String owner,
            String description,
            List<String> tags,
            String cudaVersion,
            List<String> architectures,
            List<String> vendors,
            List<String> kinds,
            String visibility,
            String account,
            Shares sharedWith,
            List<ImageCheck> checks,
            Instant createdAt,
            Instant updatedAt,
            boolean mayEdit) {}

    /** Users (by username) and accounts (by slug) an image is shared with besides its visibility. */
    @Schema(name = "ImageShares")
    public record Shares(List<String> users, List<String> accounts) {}

    /**
     * The last validation of one tag: {@code ok} (the registry has the manifest; {@code digest} is what the tag
     * resolved to), {@code not-found}, {@code unauthorized} or {@code unreachable}, with the reason in {@code detail}.
     */
    @Schema(name = "ImageCheck")
    public record ImageCheck(
            String tag, String result, String detail, String digest, String mediaType, Instant checkedAt) {}

    /** One page of images, newest first. */
    @Schema(name = "ImagePage")
    public record ImagePage(List<Image> items, String nextCursor) {}

    /**
     * A new image. {@code reference} without tag or digest ({@code ghcr.io/org/trainer}); {@code visibility}
     * {@code private} (the default), {@code account} (with {@code account}) or {@code public} (platform admins only).
     */
    @Schema(name = "CreateImage")
    public record CreateImage(
            String reference,
            String description,
            List<String> tags,
            String cudaVersion,
            List<String> architectures,
            List<String> vendors,
            List<String> kinds,
            String visibility,
            String account,
            Shares sharedWith) {}

    /** Changes to an image: a field left out (null) stays. */
    @Schema(name = "UpdateImage")
    public record UpdateImage(
            String reference,
            String description,
            List<String> tags,
            String cudaVersion,
            List<String> architectures,
            List<String> vendors,
            List<String> kinds,
            String visibility,
            String account,
            Shares sharedWith) {}
}
