package io.crater.tensorboard;

import io.crater.job.JobLookups;
import io.crater.policy.TensorboardPanels;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** What the TensorBoard panels API takes and answers. */
public final class TensorboardViews {

    private TensorboardViews() {}

    /**
     * A log folder to show: {@code space} ({@code user} by default, {@code account:<slug>}, {@code public}) and
     * {@code path}, or {@code job} (that job's working directory); {@code name} is its run-name prefix.
     */
    @Schema(name = "TensorboardSourceRequest")
    public record SourceIn(String space, String path, String job, String name) {}

    /** A new panel: its name and one to eight log folders. */
    public record CreateTensorboard(String name, List<SourceIn> sources) {}

    /** A log folder as the panel shows it: its prefix, the space and path it lies at, the job it was named by. */
    @Schema(name = "TensorboardSource")
    public record Source(String name, String space, String path, String job, String mountPath) {}

    /**
     * A panel. {@code state}: its server job's state while that has not ended, else {@code Stopped}; {@code job}: the
     * server job's id (its app origin is that job's); {@code stoppedReason}: why it last stopped
     * ({@code TensorboardIdle}, or the job's reason such as {@code Stopped}); {@code lastUsedAt}: the last request
     * through the proxy that was written down.
     */
    public record Tensorboard(
            String id,
            String name,
            String account,
            String state,
            String job,
            String stoppedReason,
            Instant startedAt,
            Instant stoppedAt,
            Instant lastUsedAt,
            List<Source> sources,
            Instant createdAt) {}

    public record TensorboardList(List<Tensorboard> items) {}

    /** A panel as its owner sees it, from its row, folders, server job (null: none) and the proxy's last requests. */
    static Tensorboard of(
            TensorboardQueries.PanelRow p,
            List<TensorboardQueries.SourceRow> sources,
            JobLookups.Status job,
            Map<String, Instant> used) {
        boolean ended = job == null || job.ended();
        return new Tensorboard(
                p.publicId(),
                p.name(),
                job == null ? null : job.account(),
                ended ? "Stopped" : job.state(),
                job == null ? null : job.publicId(),
                !ended ? null : p.stoppedReason() != null ? p.stoppedReason() : job == null ? null : job.reason(),
                job == null ? null : job.startedAt(),
                !ended ? null : p.stoppedAt() != null ? p.stoppedAt() : job == null ? null : job.finishedAt(),
                job == null ? null : used.get(job.publicId()),
                (sources == null ? List.<TensorboardQueries.SourceRow>of() : sources)
                        .stream()
                                .map(s -> new Source(
                                        s.name(), s.space(), s.path(), s.job(), TensorboardPanels.LOGS + s.position()))
                                .toList(),
                p.createdAt());
    }
}
