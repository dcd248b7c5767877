package io.crater.idle;

import io.crater.policy.IdlePolicy;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** Response records of the idle reclamation API. */
public final class IdleViews {

    private IdleViews() {}

    /**
     * A job's accelerator utilisation for the console's chart, and the idle decision about it now (null when idle
     * detection does not judge the job: it is not a running interactive job holding accelerators).
     *
     * @param model the accelerator model (null: the job holds none)
     * @param unavailable why there are no samples when the metrics source could not be read, else null
     */
    public record Utilisation(
            String job,
            String model,
            int accelerators,
            String metric,
            double thresholdPercent,
            long windowSeconds,
            long graceSeconds,
            Instant from,
            Instant to,
            List<IdlePolicy.Series> series,
            String unavailable,
            Decision decision) {}

    /**
     * An idle decision with its numbers: {@code kind} Busy, Unknown (with {@code why} and {@code numbers}), Exempt
     * (until {@code lockUntil}), Warn or Waiting (stopped at {@code stopAt} if it stays idle) or Stop.
     */
    @Schema(name = "IdleDecision")
    public record Decision(
            String kind,
            String why,
            String message,
            Double peakPercent,
            Double meanPercent,
            Double thresholdPercent,
            Long windowSeconds,
            Instant stopAt,
            Instant idleSince,
            Instant lockUntil,
            Map<String, Long> numbers) {

        static Decision of(IdlePolicy.Decision d) {
            if (d instanceof IdlePolicy.Busy b) {
                return measured(d, b.peak(), b.mean(), b.threshold(), b.window().toSeconds(), null, null);
            }
            if (d instanceof IdlePolicy.Warn w) {
                return measured(d, w.peak(), w.mean(), w.threshold(), w.window().toSeconds(), w.stopAt(), null);
            }
            if (d instanceof IdlePolicy.Waiting w) {
                return measured(d, w.peak(), w.mean(), w.threshold(), w.window().toSeconds(), w.stopAt(), null);
            }
            if (d instanceof IdlePolicy.Stop s) {
                return measured(d, s.peak(), s.mean(), s.threshold(), s.window().toSeconds(), null, s.idleSince());
            }
            if (d instanceof IdlePolicy.Exempt e) {
                return new Decision(
                        d.kind(), null, d.message(), null, null, null, null, null, null, e.lockUntil(), null);
            }
            IdlePolicy.Unknown u = (IdlePolicy.Unknown) d;
            return new Decision(d.kind(), u.why(), u.message(), null, null, null, null, null, null, null, u.numbers());
        }

        private static Decision measured(
                IdlePolicy.Decision d,
                double peak,
                double mean,
                double threshold,
                long window,
                Instant stopAt,
                Instant idleSince) {
            return new Decision(
                    d.kind(), null, d.message(), peak, mean, threshold, window, stopAt, idleSince, null, null);
        }
    }

    /** What idle reclamation took back in an account since {@code since}: in all, per member, the latest stops. */
    public record Reclaims(String account, Instant since, Totals total, List<UserTotals> users, List<Reclaim> recent) {}

    /**
     * Sums: stops, accelerator-hours of time limits the stops freed ({@code gpuHours}) and accelerator-hours held
     * idle before them ({@code idleGpuHours}, from the idle window's start to the stop).
     */
    public record Totals(long reclaims, BigDecimal gpuHours, BigDecimal idleGpuHours) {}

    /** One member's sums. */
    public record UserTotals(
            String username, String displayName, long reclaims, BigDecimal gpuHours, BigDecimal idleGpuHours) {}

    /** One stop for idleness. */
    public record Reclaim(
            String job,
            String name,
            String username,
            String model,
            int accelerators,
            Instant idleSince,
            Instant stoppedAt,
            BigDecimal gpuHours) {}
}
