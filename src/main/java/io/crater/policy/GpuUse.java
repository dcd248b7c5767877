package io.crater.policy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * How much of what a job held of an accelerator was used: measured utilisation integrated over time.
 *
 * <p>A source answers one point per accelerator and step, each the mean utilisation over the step that ends at the
 * point ({@code avg_over_time(M[step])} in Prometheus): a point at {@code t} covers {@code (t - step, t]}. A step
 * without a sample has no point, and its time is <b>unknown</b>: it is never counted as idle or as busy. Used time is
 * Σ percent / 100 × covered time, in device-milliseconds; known (measured) time is Σ covered time.
 *
 * <p>Whatever the source answers, {@code 0 ≤ used ≤ measured ≤ devices × window}: points that overlap (two buckets
 * of an irregular source) count their shared time once, and more series than the job holds devices (a duplicated
 * series) are scaled down to the devices held.
 */
public final class GpuUse {

    private GpuUse() {}

    /** A stretch of one accelerator's time at one utilisation, in percent (0–100). */
    public record Piece(Instant from, Instant to, double percent) {}

    /** Device-milliseconds used (utilisation-weighted) and measured (with samples) over a window. */
    public record Measured(long usedMs, long measuredMs) {
        public static final Measured NONE = new Measured(0, 0);

        public Measured plus(Measured o) {
            return new Measured(usedMs + o.usedMs, measuredMs + o.measuredMs);
        }
    }

    /**
     * The stretches each series' points cover inside {@code [from, to)}: one list per series, in time order, never
     * overlapping within a series; percents clamped to 0–100, non-finite points dropped.
     */
    public static List<List<Piece>> pieces(List<IdlePolicy.Series> series, Duration step, Instant from, Instant to) {
        if (step.isNegative() || step.isZero()) {
            throw new IllegalArgumentException("a step must be positive (was " + step + ")");
        }
        List<List<Piece>> out = new ArrayList<>(series.size());
        for (IdlePolicy.Series s : series) {
            List<IdlePolicy.Sample> points = new ArrayList<>(s.samples());
            points.sort(Comparator.comparing(IdlePolicy.Sample::at));
            List<Piece> mine = new ArrayList<>(points.size());
            Instant covered = from;
            for (IdlePolicy.Sample p : points) {
                if (!Double.isFinite(p.percent())) {
                    continue;
                }
                Instant start = later(later(p.at().minus(step), covered), from);
                Instant end = earlier(p.at(), to);
                if (end.isAfter(start)) {
                    mine.add(new Piece(start, end, Math.max(0, Math.min(100, p.percent()))));
                    covered = end;
                }
            }
            out.add(mine);
        }
        return out;
    }

    /**
     * What the pieces of a job holding {@code devices} accelerators give inside {@code [from, to)}: used and measured
     * device-milliseconds, measured at most {@code devices × (to - from)}.
     */
    public static Measured within(List<List<Piece>> pieces, int devices, Instant from, Instant to) {
        if (devices <= 0 || !to.isAfter(from)) {
            return Measured.NONE;
        }
        double used = 0;
        long measured = 0;
        for (List<Piece> series : pieces) {
            for (Piece p : series) {
                Instant a = later(p.from(), from);
                Instant b = earlier(p.to(), to);
                if (b.isAfter(a)) {
                    long ms = Duration.between(a, b).toMillis();
                    measured += ms;
                    used += p.percent() / 100.0 * ms;
                }
            }
        }
        long most =
                Math.multiplyExact((long) devices, Duration.between(from, to).toMillis());
        if (measured > most) {
            used = used * most / measured;
            measured = most;
        }
        long usedMs = Math.min(measured, Math.max(0, Math.round(used)));
        return new Measured(usedMs, measured);
    }

    /** Used ÷ measured, or null when nothing was measured. */
    public static Double efficiency(double used, double measured) {
        return measured > 0 ? Math.min(1.0, Math.max(0.0, used / measured)) : null;
    }

    private static Instant later(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    private static Instant earlier(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }
}
