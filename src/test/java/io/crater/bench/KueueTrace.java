package io.crater.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.crater.policy.Quantities;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Kueue's scheduler performance traces (kubernetes-sigs/kueue, {@code test/performance/scheduler/configs}, copied
 * into {@code src/test/resources/bench/kueue/}) as plain data: the cluster queues and every workload with the moment
 * it is created. Pure: no clock, no I/O beyond reading the YAML.
 *
 * <p>Generated as Kueue's runner ({@code runner/generator/generator.go}) does: every cohort, every queue of each
 * queue set, and every workloads set of a queue start at once; inside a set the runner waits
 * {@code creationIntervalMs} before each workload it creates, so workload {@code k} (0-based, counting the set's
 * templates in turn) is created at {@code (k + 1) × creationIntervalMs} after the start, per queue.
 *
 * <p>The lower limit on wall time is the one Kueue's traces are designed around: per cohort, the work of its queues
 * (Σ request × runtime) over its capacity (Σ nominal quota of its queues); the largest over the cohorts.
 */
final class KueueTrace {

    /** A cohort set of the generator file: {@code count} cohorts, each with the same queue sets. */
    record CohortSet(String className, int count, List<QueuesSet> queuesSets) {}

    /** {@code count} cluster queues with the same quota and the same workloads. */
    record QueuesSet(
            String className,
            int count,
            String nominalQuota,
            String borrowingLimit,
            String reclaimWithinCohort,
            String withinClusterQueue,
            List<WorkloadsSet> workloadsSets) {}

    /** {@code count} rounds of the listed workloads, one every {@code creationIntervalMs}. */
    record WorkloadsSet(int count, long creationIntervalMs, List<WorkloadTemplate> workloads) {}

    /** One workload class: how long it runs once admitted, its priority and its CPU request (a quantity). */
    record WorkloadTemplate(String className, long runtimeMs, int priority, String request) {}

    /** A generator file. */
    record Generator(List<CohortSet> cohorts) {}

    /** A rangespec file: Kueue's thresholds (its measured means are in the file's comments only). */
    record RangeSpec(
            Cmd cmd,
            Map<String, Double> clusterQueueClassesMinUsage,
            Map<String, Long> wlClassesMaxAvgTimeToAdmissionMs) {}

    /** Limits on the minimalkueue process. */
    record Cmd(Long maxWallMs, Long mCPU, Long maxrss) {}

    /** A cluster queue: its global index (0..N-1), its cohort's index, and its CPU quota in milli-cores. */
    record Queue(
            int index,
            int cohort,
            String className,
            long nominalMilli,
            long borrowingLimitMilli,
            String reclaimWithinCohort,
            String withinClusterQueue) {}

    /**
     * A workload: its queue and cohort, class, the moment it is created (ms after the start), how long it runs, its
     * Kueue priority and its CPU request in milli-cores; {@code name} is Kueue's ({@code class-set-round-template})
     * prefixed by the queue.
     */
    record Workload(
            String name,
            int queue,
            int cohort,
            String className,
            long createdAtMs,
            long runtimeMs,
            int priority,
            long requestMilli) {}

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private final List<Queue> queues;
    private final List<Workload> workloads;

    private KueueTrace(List<Queue> queues, List<Workload> workloads) {
        this.queues = List.copyOf(queues);
        this.workloads = workloads.stream()
                .sorted(Comparator.comparingLong(Workload::createdAtMs)
                        .thenComparingInt(Workload::queue)
                        .thenComparing(Workload::name))
                .toList();
    }

    /** The trace of {@code bench/kueue/<name>-generator.yaml} ({@code baseline}, {@code large-scale}). */
    static KueueTrace load(String name) {
        return parse(resource(name + "-generator.yaml"));
    }

    /** The rangespec of {@code bench/kueue/<name>-rangespec.yaml}. */
    static RangeSpec rangeSpec(String name) {
        try (InputStream in = resource(name + "-rangespec.yaml")) {
            return YAML.readValue(in, RangeSpec.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads a generator file; unknown fields are refused, so a trace is never half understood. */
    static KueueTrace parse(InputStream yaml) {
        Generator g;
        try (yaml) {
            g = YAML.readValue(yaml, Generator.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Queue> queues = new ArrayList<>();
        List<Workload> workloads = new ArrayList<>();
        int cohort = 0;
        for (CohortSet cs : g.cohorts()) {
            for (int c = 0; c < cs.count(); c++, cohort++) {
                for (QueuesSet qs : cs.queuesSets()) {
                    for (int q = 0; q < qs.count(); q++) {
                        Queue queue = new Queue(
                                queues.size(),
                                cohort,
                                qs.className(),
                                Quantities.toMilli(qs.nominalQuota()),
                                qs.borrowingLimit() == null ? 0 : Quantities.toMilli(qs.borrowingLimit()),
                                qs.reclaimWithinCohort(),
                                qs.withinClusterQueue());
                        queues.add(queue);
                        addWorkloads(queue, qs.workloadsSets(), workloads);
                    }
                }
            }
        }
        return new KueueTrace(queues, workloads);
    }

    private static void addWorkloads(Queue queue, List<WorkloadsSet> sets, List<Workload> out) {
        for (int s = 0; s < sets.size(); s++) {
            WorkloadsSet set = sets.get(s);
            List<WorkloadTemplate> templates = set.workloads();
            for (int round = 0; round < set.count(); round++) {
                for (int t = 0; t < templates.size(); t++) {
                    WorkloadTemplate w = templates.get(t);
                    long k = (long) round * templates.size() + t;
                    out.add(new Workload(
                            "q" + queue.index() + "-" + w.className() + "-" + s + "-" + round + "-" + t,
                            queue.index(),
                            queue.cohort(),
                            w.className(),
                            (k + 1) * set.creationIntervalMs(),
                            w.runtimeMs(),
                            w.priority(),
                            Quantities.toMilli(w.request())));
                }
            }
        }
    }

    private static InputStream resource(String file) {
        InputStream in = KueueTrace.class.getResourceAsStream("/bench/kueue/" + file);
        if (in == null) {
            throw new IllegalArgumentException("no Kueue trace file bench/kueue/" + file);
        }
        return in;
    }

    /**
     * The first {@code max(1, round(N × fraction))} queues (in generation order, so whole cohorts first) with their
     * workloads, for quick runs.
     */
    KueueTrace keep(double fraction) {
        if (!(fraction > 0 && fraction <= 1)) {
            throw new IllegalArgumentException("the fraction of queues kept must be in (0, 1], not " + fraction);
        }
        int n = (int) Math.max(1, Math.round(queues.size() * fraction));
        return new KueueTrace(
                queues.subList(0, n),
                workloads.stream().filter(w -> w.queue() < n).toList());
    }

    List<Queue> queues() {
        return queues;
    }

    /** Every workload, in creation order. */
    List<Workload> workloads() {
        return workloads;
    }

    /** How many cohorts have at least one queue. */
    int cohorts() {
        return (int) queues.stream().mapToInt(Queue::cohort).distinct().count();
    }

    /** Σ nominal quota of the queues, milli-CPU: the capacity the trace is designed for. */
    long nominalMilli() {
        return queues.stream().mapToLong(Queue::nominalMilli).sum();
    }

    /** The number of workloads per class. */
    Map<String, Long> countByClass() {
        Map<String, Long> out = new TreeMap<>();
        workloads.forEach(w -> out.merge(w.className(), 1L, Long::sum));
        return out;
    }

    /** When the last workload is created, ms after the start. */
    long lastCreationMs() {
        return workloads.isEmpty() ? 0 : workloads.get(workloads.size() - 1).createdAtMs();
    }

    /**
     * The lower limit on wall time in ms: per cohort, Σ request × runtime of its queues' workloads divided by Σ
     * nominal quota of its queues; the largest over the cohorts.
     */
    double lowerLimitMs() {
        Map<Integer, Long> capacity = new TreeMap<>();
        queues.forEach(q -> capacity.merge(q.cohort(), q.nominalMilli(), Long::sum));
        Map<Integer, Long> work = new TreeMap<>();
        workloads.forEach(w -> work.merge(w.cohort(), w.requestMilli() * w.runtimeMs(), Long::sum));
        double limit = 0;
        for (Map.Entry<Integer, Long> e : work.entrySet()) {
            limit = Math.max(limit, (double) e.getValue() / capacity.get(e.getKey()));
        }
        return limit;
    }
}
