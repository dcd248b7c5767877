package io.crater.policy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Whether a node's accelerators are healthy, suspect or quarantined (docs/nodes.md, "Quarantine").
 *
 * <p><b>Evidence.</b> A card's XID (the last XID error its exporter reports, {@code DCGM_FI_DEV_XID_ERRORS}) that
 * changed to a code other than 0, a rise of its uncorrectable (double-bit) ECC error count
 * ({@code DCGM_FI_DEV_ECC_DBE_VOL_TOTAL}), and a Crater job that failed with a pod on the node. {@link #observe} turns
 * two readings of a card into evidence; {@link #decide} judges a node on its evidence.
 *
 * <p><b>XIDs</b> are classed after NVIDIA's XID catalogue and its resolution buckets ({@link #classify}):
 * <i>application</i> codes, whose remedy is to restart or fix the application (8, 11, 13, 31, 43, 45), say nothing about
 * the card; <i>fatal</i> codes, whose remedy is a GPU reset, a reboot or a replacement (48 double-bit ECC, 61 and 62
 * internal micro-controller, 64 row-remapping failure, 74 NVLink, 79 fallen off the bus, 95 uncontained ECC, 119 and
 * 120 GSP, 140 unrecovered ECC), quarantine the node at once; <i>hardware</i> codes that the GPU survived but that
 * point at failing memory (63 row remapping recorded, 92 high single-bit ECC rate, 94 contained ECC), and every code
 * this table does not know, make it suspect, and quarantine it when repeated.
 *
 * <p><b>Decisions.</b> Only evidence after the last clear and within {@code window} counts; a suspect node whose
 * evidence ages out of the window is healthy again. A quarantined node stays quarantined until a platform admin
 * clears it, whatever its evidence does meanwhile.
 */
public final class GpuHealth {

    private GpuHealth() {}

    /** A node's health. */
    public enum State {
        HEALTHY,
        SUSPECT,
        QUARANTINED
    }

    /** What an XID code says about its card. */
    public enum XidClass {
        APPLICATION,
        HARDWARE,
        FATAL
    }

    /** A kind of evidence. */
    public enum Kind {
        XID,
        ECC_DBE,
        JOB_FAILED
    }

    static final Set<Integer> APPLICATION = Set.of(8, 11, 13, 31, 43, 45);
    static final Set<Integer> FATAL = Set.of(48, 61, 62, 64, 74, 79, 95, 119, 120, 140);
    static final Set<Integer> HARDWARE = Set.of(63, 92, 94);

    /** The class of an XID code; a code the table does not know is hardware (suspect, never ignored). */
    public static XidClass classify(long xid) {
        int code = (int) xid;
        if (APPLICATION.contains(code)) {
            return XidClass.APPLICATION;
        }
        return FATAL.contains(code) ? XidClass.FATAL : XidClass.HARDWARE;
    }

    /**
     * One piece of evidence about a node.
     *
     * @param gpu the card's index on the node; null for a failed job (its cards are not known once it ended)
     * @param value the XID code, the number of new uncorrectable ECC errors, or 0 for a failed job
     * @param job the public id of the Crater job that held the card, or that failed; null when none
     */
    public record Evidence(Kind kind, Instant at, Integer gpu, long value, String job) {}

    /**
     * The thresholds.
     *
     * @param window how long evidence counts
     * @param hardwareXids hardware XIDs on the node within the window that quarantine it (one makes it suspect)
     * @param failedJobsSuspect distinct failed jobs on the node within the window that make it suspect
     * @param failedJobsQuarantine distinct failed jobs on the node within the window that quarantine it
     */
    public record Rules(Duration window, int hardwareXids, int failedJobsSuspect, int failedJobsQuarantine) {
        public Rules {
            if (window.isNegative() || window.isZero()) {
                throw new IllegalArgumentException("the window must be positive");
            }
            if (hardwareXids < 1 || failedJobsSuspect < 1 || failedJobsQuarantine < failedJobsSuspect) {
                throw new IllegalArgumentException(
                        "thresholds must be at least 1, and quarantining needs at least as many failures as suspicion");
            }
        }

        public static Rules defaults() {
            return new Rules(Duration.ofHours(1), 2, 3, 6);
        }
    }

    /**
     * A node's health, why, and the evidence that decided it (null for a healthy node without any). Reasons carry
     * {@code gpu} and {@code xid} (or {@code errors}, {@code jobs}) with the window in {@code windowSeconds}.
     */
    public record Decision(State state, List<Reason> reasons, Evidence cause) {
        public Decision {
            reasons = List.copyOf(reasons);
        }
    }

    /** What a card reported last: its last XID code and its uncorrectable ECC count; null when never read. */
    public record Mark(Long xid, Long eccDbe) {}

    /** The evidence two readings of a card give, and the card's mark after the second. */
    public record Observation(List<Evidence> evidence, Mark mark) {}

    /**
     * The evidence of a card's reading against its previous mark (null: never read before). An XID is evidence when
     * it is not 0 and differs from the one marked (the exporter repeats the last XID on every scrape: the same code
     * twice in a row reads as one event); an XID back to 0 (a reset) just moves the mark. A rise of the ECC count is
     * evidence of as many errors; a fall is a reset of the counter (a driver reload), no evidence. A reading the
     * exporter lacks (null) keeps the mark.
     */
    public static Observation observe(Mark previous, Long xid, Long eccDbe, int gpu, Instant at, String job) {
        Long lastXid = previous == null ? null : previous.xid();
        Long lastDbe = previous == null ? null : previous.eccDbe();
        List<Evidence> out = new ArrayList<>();
        if (xid != null && xid > 0 && !xid.equals(lastXid)) {
            out.add(new Evidence(Kind.XID, at, gpu, xid, job));
        }
        if (eccDbe != null && eccDbe > 0) {
            long rise = lastDbe == null ? eccDbe : eccDbe - lastDbe;
            if (rise > 0) {
                out.add(new Evidence(Kind.ECC_DBE, at, gpu, rise, job));
            }
        }
        Mark mark = new Mark(xid != null ? xid : lastXid, eccDbe != null ? eccDbe : lastDbe);
        return new Observation(out, mark);
    }

    /**
     * A node's health now: {@code current} is its stored state, {@code clearedAt} when a platform admin last cleared
     * it (null: never), {@code evidence} what is known of it.
     */
    public static Decision decide(State current, Instant clearedAt, List<Evidence> evidence, Rules rules, Instant now) {
        List<Evidence> counted = evidence.stream()
                .filter(e -> clearedAt == null || e.at().isAfter(clearedAt))
                .filter(e -> !e.at().isAfter(now))
                .filter(e -> current == State.QUARANTINED || e.at().isAfter(now.minus(rules.window())))
                .sorted(Comparator.comparing(Evidence::at))
                .toList();
        Findings f = findings(counted, rules);
        if (current == State.QUARANTINED) {
            return new Decision(State.QUARANTINED, f.reasons, f.cause);
        }
        return new Decision(f.state, f.reasons, f.cause);
    }

    /** What the evidence shows so far: the state, its reasons and the evidence that decided it. */
    private static final class Findings {
        State state = State.HEALTHY;
        final List<Reason> reasons = new ArrayList<>();
        Evidence cause;

        /** Raises the state to {@code to} with {@code e} as its cause; never lowers it. */
        void raise(State to, Evidence e) {
            if (to.compareTo(state) > 0) {
                state = to;
                cause = e;
            }
        }
    }

    private static Findings findings(List<Evidence> counted, Rules rules) {
        Findings f = new Findings();
        fatal(counted, f);
        Set<String> failed = new LinkedHashSet<>();
        counted.stream()
                .filter(e -> e.kind() == Kind.JOB_FAILED)
                .forEach(e -> failed.add(e.job() == null ? "job@" + e.at() : e.job()));
        hardware(counted, rules, failed.size(), f);
        failures(counted, rules, failed.size(), f);
        for (Evidence e : counted) {
            if (e.kind() == Kind.XID && classify(e.value()) == XidClass.APPLICATION) {
                f.reasons.add(ReasonCode.GpuXidApplication.reason(
                        "GPU " + e.gpu() + " reported XID " + e.value()
                                + ", an application error: it says nothing about the card",
                        Map.of("gpu", (long) e.gpu(), "xid", e.value()),
                        jobArgs(e)));
            }
        }
        return f;
    }

    /** Fatal XIDs and uncorrectable ECC errors: each quarantines, the first is the cause. */
    private static void fatal(List<Evidence> counted, Findings f) {
        for (Evidence e : counted) {
            if (e.kind() == Kind.XID && classify(e.value()) == XidClass.FATAL) {
                f.reasons.add(ReasonCode.GpuXidFatal.reason(
                        "GPU " + e.gpu() + " reported XID " + e.value() + ", which needs the card reset or replaced",
                        Map.of("gpu", (long) e.gpu(), "xid", e.value()),
                        jobArgs(e)));
                f.raise(State.QUARANTINED, e);
            } else if (e.kind() == Kind.ECC_DBE) {
                f.reasons.add(ReasonCode.GpuEccUncorrectable.reason(
                        "GPU " + e.gpu() + " reported " + e.value() + " uncorrectable (double-bit) ECC error"
                                + (e.value() == 1 ? "" : "s"),
                        Map.of("gpu", (long) e.gpu(), "errors", e.value()),
                        jobArgs(e)));
                f.raise(State.QUARANTINED, e);
            }
        }
    }

    /** Hardware XIDs: one makes the node suspect; enough of them, or one with repeated job failures, quarantine it. */
    private static void hardware(List<Evidence> counted, Rules rules, int failedJobs, Findings f) {
        List<Evidence> hardware = counted.stream()
                .filter(e -> e.kind() == Kind.XID && classify(e.value()) == XidClass.HARDWARE)
                .toList();
        if (hardware.isEmpty()) {
            return;
        }
        long windowSeconds = rules.window().toSeconds();
        Evidence last = hardware.get(hardware.size() - 1);
        boolean repeated = hardware.size() >= rules.hardwareXids();
        boolean withFailures = failedJobs >= rules.failedJobsSuspect();
        ReasonCode code = repeated ? ReasonCode.GpuXidRepeated : ReasonCode.GpuXidHardware;
        f.reasons.add(code.reason(
                hardware.size() + " hardware XID" + (hardware.size() == 1 ? "" : "s") + " within " + windowSeconds
                        + " s, the last XID " + last.value() + " on GPU " + last.gpu()
                        + (repeated ? " (" + rules.hardwareXids() + " quarantine the node)" : ""),
                Map.of(
                        "gpu", (long) last.gpu(),
                        "xid", last.value(),
                        "count", (long) hardware.size(),
                        "threshold", (long) rules.hardwareXids(),
                        "windowSeconds", windowSeconds),
                jobArgs(last)));
        f.raise(repeated || withFailures ? State.QUARANTINED : State.SUSPECT, last);
    }

    /** Distinct failed jobs on the node: enough make it suspect, more quarantine it. */
    private static void failures(List<Evidence> counted, Rules rules, int failedJobs, Findings f) {
        if (failedJobs < rules.failedJobsSuspect()) {
            return;
        }
        Evidence last = counted.stream()
                .filter(e -> e.kind() == Kind.JOB_FAILED)
                .reduce((a, b) -> b)
                .orElseThrow();
        long windowSeconds = rules.window().toSeconds();
        f.reasons.add(ReasonCode.JobsFailingOnNode.reason(
                failedJobs + " jobs failed on the node within " + windowSeconds + " s",
                Map.of(
                        "jobs", (long) failedJobs,
                        "suspectAt", (long) rules.failedJobsSuspect(),
                        "quarantineAt", (long) rules.failedJobsQuarantine(),
                        "windowSeconds", windowSeconds),
                Map.of("job", last.job() == null ? "" : last.job())));
        f.raise(failedJobs >= rules.failedJobsQuarantine() ? State.QUARANTINED : State.SUSPECT, last);
    }

    private static Map<String, String> jobArgs(Evidence e) {
        return e.job() == null ? Map.of() : Map.of("job", e.job());
    }

    /**
     * The sentence a failed job's owner reads: {@code GPU 3 on node a100-4 reported XID 79}, or the ECC errors.
     */
    public static String faultMessage(String node, Evidence e) {
        return e.kind() == Kind.ECC_DBE
                ? "GPU " + e.gpu() + " on node " + node + " reported " + e.value() + " uncorrectable ECC error"
                        + (e.value() == 1 ? "" : "s")
                : "GPU " + e.gpu() + " on node " + node + " reported XID " + e.value();
    }
}
