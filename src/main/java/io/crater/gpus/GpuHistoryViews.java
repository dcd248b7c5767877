package io.crater.gpus;

import java.time.Instant;
import java.util.List;

/** What {@code GET /api/v1/cluster/gpu-history} shows: per accelerator model its cards now and its hours. */
public final class GpuHistoryViews {

    private GpuHistoryViews() {}

    /** The body: the span asked for ({@code from} the first hour's start, {@code to} now) and one entry per model. */
    public record History(int hours, Instant from, Instant to, List<ModelHistory> models) {}

    /**
     * One model: its key and name, the cards of its nodes now ({@code total}) and one point per hour of the span,
     * oldest first.
     */
    public record ModelHistory(String model, String displayName, long total, List<Point> points) {}

    /**
     * One hour over the whole cluster, in GPUs (mean devices over the hour): {@code allocated} held, {@code
     * measured} with utilisation samples, {@code used} busy (utilisation-weighted); {@code efficiency} used ÷
     * measured (null when nothing was measured); {@code partial} for the current hour, whose means are over its part
     * so far.
     */
    public record Point(
            Instant hour, double allocated, double measured, double used, Double efficiency, boolean partial) {}
}
