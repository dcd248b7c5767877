package io.crater.images;

import java.time.Instant;
import java.util.List;

/** The wire types of image builds (docs/assets.md, "Builds"). */
public final class ImageBuildViews {

    private ImageBuildViews() {}

    /**
     * A build to start: either {@code base} with {@code pip} and {@code apt} packages, or a {@code dockerfile}; the
     * image it pushes ({@code registry/repository:tag}) with the name of the caller's registry credential that logs in
     * there; what the catalogue entry says of it; the builder's CPU and memory (Kubernetes quantities).
     */
    public record CreateBuild(
            String base,
            List<String> pip,
            List<String> apt,
            String dockerfile,
            String destination,
            String credential,
            String description,
            String cudaVersion,
            List<String> kinds,
            List<String> vendors,
            String cpu,
            String memory) {}

    /**
     * A build as its owner sees it. {@code state}: building, pushed (the job succeeded, the registry is being asked),
     * succeeded, failed or stopped; {@code jobState} the state of its job; on a failure {@code reason} (a stable
     * code), {@code detail} and the builder's last log lines; on success the catalogue entry {@code image} with the
     * {@code digest} the registry resolved the tag to.
     */
    public record Build(
            String id,
            String owner,
            String account,
            String source,
            String base,
            List<String> pip,
            List<String> apt,
            String dockerfile,
            String destination,
            String credential,
            String builder,
            String description,
            String state,
            String job,
            String jobState,
            String reason,
            String detail,
            String logTail,
            String image,
            String digest,
            Instant createdAt,
            Instant finishedAt) {}

    /** A page of builds, newest first. */
    public record BuildPage(List<Build> items, String nextCursor) {}
}
