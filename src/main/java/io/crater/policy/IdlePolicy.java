package io.crater.policy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Idle detection for interactive jobs (jupyter, webide) that hold accelerators.
 *
 * <p><b>The rule.</b> A job is <i>idle</i> when every sample of every accelerator it holds, over the last
 * {@code window}, is below the {@code threshold} (percent utilisation of its model's metric). One sample at or above
 * the threshold, on any accelerator, makes it <i>busy</i>. An idle job is warned; it is stopped once it was warned at
 * least {@code grace} ago and is still idle; a job that becomes busy again after its warning is busy (the warning is
 * cleared, it is never stopped for it). An approved job lock that has not ended exempts the job.
 *
 * <p><b>Missing samples mean unknown, never idle.</b> Without positive evidence of idleness nothing is stopped: a job
 * that started less than a window ago is not judged; every accelerator it holds must have samples covering the whole
 * window (the first no later than {@code maxGap} after the window's start, the last no earlier than {@code maxGap}
 * before now) with no gap between two samples longer than {@code maxGap}. A metrics source that answers nothing, or
 * too little, therefore never stops a job.
 */
public final class IdlePolicy {

    private IdlePolicy() {}

    /** One utilisation sample of one accelerator, in percent (0–100). */
    public record Sample(Instant at, double percent) {}

    /** The samples of one accelerator of one pod of the job. */
    public record Series(String pod, String accelerator, List<Sample> samples) {
        public Series {
            samples = List.copyOf(samples);
        }
    }

    /**
     * What an accelerator model counts as idle.
     *
     * @param model the accelerator model's catalogue key
     * @param metric the metric its samples come from (for the record; the decision does not depend on it)
     * @param threshold percent utilisation below which a sample is idle
     * @param window how long every sample must stay below the threshold
     * @param grace how long after the warning an idle job is stopped
     * @param maxGap the longest stretch without a sample that still counts as covered
     */
    public record Rule(
            String model, String metric, double threshold, Duration window, Duration grace, Duration maxGap) {}

    /** The platform's rule and the overrides per accelerator model. */
    public record Rules(Rule defaults, Map<String, Rule> perModel) {

        public Rules {
            perModel = Map.copyOf(perModel);
        }

        /** The rule of a model: its own when one is configured, else the platform's under the model's name. */
        public Rule of(String model) {
            Rule own = perModel.get(model);
            return own != null
                    ? own
                    : new Rule(
                            model,
                            defaults.metric(),
                            defaults.threshold(),
                            defaults.window(),
                            defaults.grace(),
                            defaults.maxGap());
        }
    }

    /**
     * The job as it stands.
     *
     * @param accelerators how many accelerators it holds (all its pods together)
     * @param startedAt when it started running
     * @param warnedAt when its owner was warned that it is idle, or null
     * @param lockUntil the end of an approved job lock, or null
     */
    public record Job(int accelerators, Instant startedAt, Instant warnedAt, Instant lockUntil) {}

    /** What to do about a job. */
    public sealed interface Decision permits Busy, Unknown, Exempt, Warn, Waiting, Stop {
        /** The decision's stable name: Busy, Unknown, Exempt, Warn, Waiting or Stop. */
        String kind();

        /** A sentence for people, quoting the numbers. */
        String message();
    }

    /** Some sample reached the threshold: not idle (a warning, if any, is cleared). */
    public record Busy(double peak, double mean, double threshold, Duration window) implements Decision {
        public String kind() {
            return "Busy";
        }

        public String message() {
            return "busy: utilisation reached " + pct(peak) + " (threshold " + pct(threshold) + ") in the last "
                    + describe(window);
        }
    }

    /**
     * Not enough evidence to judge ({@code why}: {@code YoungerThanWindow}, {@code NoSamples},
     * {@code AcceleratorsWithoutSamples}, {@code SampleGap}; callers whose metrics source fails use
     * {@code MetricsUnavailable}); nothing is done.
     */
    public record Unknown(String why, String message, Map<String, Long> numbers) implements Decision {
        public Unknown {
            numbers = Map.copyOf(numbers);
        }

        public String kind() {
            return "Unknown";
        }
    }

    /** An approved job lock exempts the job until {@code lockUntil}. */
    public record Exempt(Instant lockUntil) implements Decision {
        public String kind() {
            return "Exempt";
        }

        public String message() {
            return "exempt from idle reclamation by an approved job lock until " + lockUntil;
        }
    }

    /** Idle and not warned yet: warn the owner; it is stopped at {@code stopAt} if it stays idle. */
    public record Warn(double peak, double mean, double threshold, Duration window, Instant stopAt)
            implements Decision {
        public String kind() {
            return "Warn";
        }

        public String message() {
            return idle(peak, mean, threshold, window) + "; it will be stopped at " + stopAt + " unless it is used";
        }
    }

    /** Idle, warned, and the grace period has not passed: it is stopped at {@code stopAt} if it stays idle. */
    public record Waiting(double peak, double mean, double threshold, Duration window, Instant stopAt)
            implements Decision {
        public String kind() {
            return "Waiting";
        }

        public String message() {
            return idle(peak, mean, threshold, window) + "; warned, it will be stopped at " + stopAt
                    + " unless it is used";
        }
    }

    /**
     * Idle, warned at least the grace period ago and still idle: stop it. {@code idleSince} is the start of the
     * window that found it idle when it was warned (its warning time minus the window).
     */
    public record Stop(double peak, double mean, double threshold, Duration window, Instant idleSince)
            implements Decision {
        public String kind() {
            return "Stop";
        }

        public String message() {
            return idle(peak, mean, threshold, window) + " (idle since " + idleSince + ")";
        }
    }

    /** Decides about one job from the samples of its accelerators (any time range: only the last window counts). */
    public static Decision decide(Job job, List<Series> series, Rule rule, Instant now) {
        if (job.lockUntil() != null && job.lockUntil().isAfter(now)) {
            return new Exempt(job.lockUntil());
        }
        Duration window = rule.window();
        if (job.startedAt() == null || Duration.between(job.startedAt(), now).compareTo(window) < 0) {
            long age = job.startedAt() == null
                    ? 0
                    : Math.max(0, Duration.between(job.startedAt(), now).toSeconds());
            return new Unknown(
                    "YoungerThanWindow",
                    "running for " + describe(Duration.ofSeconds(age)) + ", less than the " + describe(window)
                            + " window: not judged yet",
                    Map.of("ageSeconds", age, "windowSeconds", window.toSeconds()));
        }
        Instant from = now.minus(window);
        List<List<Sample>> inWindow = new ArrayList<>();
        for (Series s : series) {
            List<Sample> samples = s.samples().stream()
                    .filter(x -> !x.at().isBefore(from) && !x.at().isAfter(now))
                    .sorted(Comparator.comparing(Sample::at))
                    .toList();
            if (!samples.isEmpty()) {
                inWindow.add(samples);
            }
        }
        List<Sample> all = inWindow.stream().flatMap(List::stream).toList();
        if (all.isEmpty()) {
            return new Unknown(
                    "NoSamples",
                    "no utilisation samples in the last " + describe(window),
                    Map.of("accelerators", (long) job.accelerators(), "windowSeconds", window.toSeconds()));
        }
        double peak = all.stream().mapToDouble(Sample::percent).max().orElse(0);
        double mean = all.stream().mapToDouble(Sample::percent).average().orElse(0);
        if (peak >= rule.threshold()) {
            return new Busy(peak, mean, rule.threshold(), window);
        }
        Unknown missing = coverage(job, inWindow, rule, from, now);
        if (missing != null) {
            return missing;
        }
        if (job.warnedAt() == null) {
            return new Warn(peak, mean, rule.threshold(), window, now.plus(rule.grace()));
        }
        Instant stopAt = job.warnedAt().plus(rule.grace());
        return now.isBefore(stopAt)
                ? new Waiting(peak, mean, rule.threshold(), window, stopAt)
                : new Stop(peak, mean, rule.threshold(), window, job.warnedAt().minus(window));
    }

    /**
     * What a stop for idleness frees, in thousandths of an accelerator-hour: the job's accelerators × the time its
     * time limit had left when it was stopped (none without a time limit, or once the limit has passed). Idle
     * accelerator-hours (accelerators × the time from {@code idleSince} to the stop) are what it wasted before.
     */
    public static long freedMilliGpuHours(int accelerators, Instant stoppedAt, Instant limitEndsAt) {
        if (limitEndsAt == null || !limitEndsAt.isAfter(stoppedAt)) {
            return 0;
        }
        return accelerators * Duration.between(stoppedAt, limitEndsAt).toMillis() / 3600;
    }

    /** Why the samples do not prove idleness over the whole window, or null when they do. */
    private static Unknown coverage(Job job, List<List<Sample>> inWindow, Rule rule, Instant from, Instant now) {
        if (inWindow.size() < job.accelerators()) {
            return new Unknown(
                    "AcceleratorsWithoutSamples",
                    inWindow.size() + " of the job's " + job.accelerators() + " accelerators have samples in the last "
                            + describe(rule.window()),
                    Map.of("accelerators", (long) job.accelerators(), "withSamples", (long) inWindow.size()));
        }
        Duration longest = Duration.ZERO;
        for (List<Sample> samples : inWindow) {
            Instant previous = from;
            for (Sample s : samples) {
                longest = max(longest, Duration.between(previous, s.at()));
                previous = s.at();
            }
            longest = max(longest, Duration.between(previous, now));
        }
        if (longest.compareTo(rule.maxGap()) > 0) {
            return new Unknown(
                    "SampleGap",
                    "the samples of the last " + describe(rule.window()) + " have a gap of " + describe(longest)
                            + ", longer than the " + describe(rule.maxGap()) + " allowed",
                    Map.of(
                            "gapSeconds",
                            longest.toSeconds(),
                            "maxGapSeconds",
                            rule.maxGap().toSeconds()));
        }
        return null;
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    private static String idle(double peak, double mean, double threshold, Duration window) {
        return "idle: at most " + pct(peak) + " (mean " + pct(mean) + ") over the last " + describe(window)
                + ", below the " + pct(threshold) + " threshold";
    }

    /** A percentage with one decimal: {@code 3.4 %}. */
    public static String pct(double percent) {
        return String.format(Locale.ROOT, "%.1f %%", percent);
    }

    /** A duration for people: {@code 2 h}, {@code 30 min}, {@code 90 s}, {@code 1 h 30 min}. */
    public static String describe(Duration d) {
        long s = d.toSeconds();
        if (s % 3600 == 0 && s > 0) {
            return s / 3600 + " h";
        }
        if (s >= 3600) {
            return s / 3600 + " h " + (s % 3600) / 60 + " min";
        }
        if (s % 60 == 0 && s > 0) {
            return s / 60 + " min";
        }
        return s + " s";
    }
}
