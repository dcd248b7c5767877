package io.crater.accounting;

import io.crater.job.JobHoldings;
import io.crater.job.JobNames;
import io.crater.policy.GpuUse;
import io.crater.policy.IdlePolicy;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the meter measures and what it adds, without a database or a source: which stretch of each accelerator
 * interval is measured in a run, and what the source's points give per interval, hour and local day.
 */
final class UsageMeasures {

    /** The most one run measures of one interval: a source that was down is caught up on in stretches this long. */
    static final Duration LONGEST = Duration.ofHours(6);
    /** Points per accelerator one query asks for at most. */
    static final int POINTS = 720;

    private UsageMeasures() {}

    /** One source query: the jobs holding {@code resource} whose intervals are measured over [from, to). */
    record Window(String resource, Instant from, Instant to, List<JobHoldings.Unmeasured> intervals) {

        /** The step of the query's points: the window cut into equal steps of at most {@code step}. */
        Duration step(Duration step) {
            long length = Duration.between(from, to).toMillis();
            long n = Math.min(POINTS, Math.max(1, (length + step.toMillis() - 1) / step.toMillis()));
            return Duration.ofMillis(Math.max(1, length / n));
        }
    }

    /**
     * The windows of a run: each interval from where it was measured to its end once the source has its samples
     * ({@code horizon} = now − the source's lag), else to the last whole {@code step} of the epoch before the horizon,
     * at most {@link #LONGEST}; intervals with the same resource and stretch share a window.
     */
    static List<Window> windows(List<JobHoldings.Unmeasured> intervals, Instant horizon, Duration step) {
        long s = step.toMillis();
        Instant grid = Instant.ofEpochMilli(Math.floorDiv(horizon.toEpochMilli(), s) * s);
        Map<List<Object>, List<JobHoldings.Unmeasured>> groups = new LinkedHashMap<>();
        for (JobHoldings.Unmeasured i : intervals) {
            Instant from = i.measuredUntil();
            Instant to = i.endedAt() != null && !i.endedAt().isAfter(horizon) ? i.endedAt() : grid;
            if (i.endedAt() != null && to.isAfter(i.endedAt())) {
                to = i.endedAt();
            }
            if (to.isAfter(from.plus(LONGEST))) {
                to = from.plus(LONGEST);
            }
            if (to.isAfter(from)) {
                groups.computeIfAbsent(List.of(i.resource(), from, to), k -> new ArrayList<>())
                        .add(i);
            }
        }
        List<Window> out = new ArrayList<>(groups.size());
        groups.forEach((k, v) -> out.add(new Window((String) k.get(0), (Instant) k.get(1), (Instant) k.get(2), v)));
        return out;
    }

    /** What a window's points added: per interval, and per (account, user, resource, hour or day). */
    static final class Added {
        final List<JobHoldings.Measure> measures = new ArrayList<>();
        /** Per interval id, what it added in each hour and day, so only intervals recorded are added. */
        final Map<Long, List<Part>> parts = new HashMap<>();

        record Part(long account, long user, String resource, Rollups.Slice slice, long measuredMs, long usedMs) {}

        /** The rollup rows of the intervals {@code recorded}. */
        Rollups rollups(java.util.Set<Long> recorded) {
            Rollups out = new Rollups();
            parts.forEach((id, list) -> {
                if (recorded.contains(id)) {
                    for (Part p : list) {
                        for (Rollups.Figures f : out.of(p.account(), p.user(), p.resource(), p.slice())) {
                            f.measuredMs += p.measuredMs();
                            f.usedMs += p.usedMs();
                        }
                    }
                }
            });
            return out;
        }
    }

    /** Adds what {@code series} (the window's answer, every job's pods) give each interval of the window. */
    static void add(Window w, Duration step, List<IdlePolicy.Series> series, ZoneId zone, Added into) {
        Map<String, List<IdlePolicy.Series>> byJob = new HashMap<>();
        for (IdlePolicy.Series s : series) {
            String job = jobOf(s.pod());
            if (job != null) {
                byJob.computeIfAbsent(job, k -> new ArrayList<>()).add(s);
            }
        }
        for (JobHoldings.Unmeasured i : w.intervals()) {
            List<List<GpuUse.Piece>> pieces =
                    GpuUse.pieces(byJob.getOrDefault(i.jobPublicId(), List.of()), step, w.from(), w.to());
            int devices = (int) Math.max(1, (i.milli() + 999) / 1000);
            GpuUse.Measured total = GpuUse.Measured.NONE;
            List<Added.Part> parts = new ArrayList<>();
            for (Rollups.Slice slice : Rollups.slices(w.from(), w.to(), zone)) {
                GpuUse.Measured m = GpuUse.within(pieces, devices, slice.from(), slice.to());
                if (m.measuredMs() > 0) {
                    parts.add(new Added.Part(i.account(), i.user(), i.resource(), slice, m.measuredMs(), m.usedMs()));
                }
                total = total.plus(m);
            }
            into.measures.add(new JobHoldings.Measure(i.id(), w.from(), w.to(), total.measuredMs(), total.usedMs()));
            into.parts.put(i.id(), parts);
        }
    }

    /** The public id of the job a pod belongs to ({@code c-<id>-<task>-<index>}), or null. */
    static String jobOf(String pod) {
        if (pod == null || !pod.startsWith(JobNames.PREFIX)) {
            return null;
        }
        int dash = pod.indexOf('-', JobNames.PREFIX.length());
        return dash < 0 ? null : pod.substring(JobNames.PREFIX.length(), dash);
    }
}
