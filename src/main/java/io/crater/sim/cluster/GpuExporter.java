package io.crater.sim.cluster;

import io.crater.kube.PodRequests;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The simulated cluster's GPU exporter (what DCGM's exporter is on a real node): every sample interval, one
 * utilisation sample per accelerator of each running pod that requests accelerators, kept in memory (the last
 * {@value #HISTORY} per pod, gone with the pod). The utilisation comes from the container's environment variable
 * {@value #UTIL_ENV}: a percentage ({@code 90}), a profile over the pod's run time ({@code 80@60s,0}: 80 % for the
 * first 60 s, then 0; the last value holds), or {@code none} for a pod the exporter never sees. Without it (or when
 * it is unreadable) interactive kinds idle at 0 % (a notebook nobody uses) and every other kind runs at 90 %.
 */
final class GpuExporter {

    /** Environment variable of a pod's container: its accelerators' utilisation, see the class comment. */
    static final String UTIL_ENV = "SIM_GPU_UTIL";
    /**
     * Environment variable of a pod's container: the share of its accelerators' memory in use, in percent, with the
     * same forms as {@value #UTIL_ENV}; without it the memory in use follows the utilisation.
     */
    static final String MEMORY_ENV = "SIM_GPU_MEMORY";
    /** Samples kept per pod. */
    static final int HISTORY = 4096;
    /** How long a deleted pod's samples are kept. */
    static final Duration RETAIN = Duration.ofMinutes(30);

    /** A stretch of the profile: {@code percent} for {@code length} (null: until the pod ends). */
    record Segment(double percent, Duration length) {}

    /** What the exporter last read of a pod's accelerators: utilisation and memory in use, both in percent. */
    record Reading(double utilisation, double memory) {}

    /** The samples of one pod: one utilisation per time, the same for each of its accelerators. */
    private record PodSamples(int accelerators, Deque<GpuSeries.Sample> samples) {}

    private final Duration interval;
    private final Set<String> acceleratorResources;
    private final Map<String, PodSamples> byPod = new ConcurrentHashMap<>();
    /** When each deleted pod whose samples are still kept was deleted. */
    private final Map<String, Instant> gone = new ConcurrentHashMap<>();

    private final Map<String, Reading> latest = new ConcurrentHashMap<>();
    private Instant next = Instant.MIN;

    GpuExporter(Duration interval, Set<String> acceleratorResources) {
        this.interval = interval;
        this.acceleratorResources = Set.copyOf(acceleratorResources);
    }

    /** Takes a sample of every running pod with accelerators when the interval has passed (on the simulator's loop). */
    void sample(Instant now, Collection<Pod> pods) {
        if (now.isBefore(next)) {
            return;
        }
        next = now.plus(interval);
        Instant expired = now.minus(RETAIN);
        gone.forEach((key, at) -> {
            if (at.isBefore(expired) && gone.remove(key, at)) {
                byPod.remove(key);
            }
        });
        for (Pod pod : pods) {
            if (pod.getSpec().getNodeName() == null
                    || pod.getMetadata().getDeletionTimestamp() != null
                    || pod.getStatus() == null
                    || !"Running".equals(pod.getStatus().getPhase())
                    || pod.getStatus().getStartTime() == null) {
                continue;
            }
            int accelerators = accelerators(pod);
            List<Segment> profile = profile(pod);
            if (accelerators == 0 || profile.isEmpty()) {
                continue;
            }
            Duration ran = Duration.between(Instant.parse(pod.getStatus().getStartTime()), now);
            PodSamples mine =
                    byPod.computeIfAbsent(SimState.key(pod), k -> new PodSamples(accelerators, new ArrayDeque<>()));
            gone.remove(SimState.key(pod));
            double utilisation = at(profile, ran);
            latest.put(SimState.key(pod), new Reading(utilisation, at(memoryProfile(pod, profile), ran)));
            synchronized (mine.samples()) {
                mine.samples().addLast(new GpuSeries.Sample(now, utilisation));
                while (mine.samples().size() > HISTORY) {
                    mine.samples().removeFirst();
                }
            }
        }
    }

    /** The samples of a pod's accelerators taken in [from, to], one series per accelerator; none for unknown pods. */
    List<GpuSeries> samples(String namespace, String pod, Instant from, Instant to) {
        PodSamples mine = byPod.get(namespace + "/" + pod);
        if (mine == null) {
            return List.of();
        }
        List<GpuSeries.Sample> within;
        synchronized (mine.samples()) {
            within = mine.samples().stream()
                    .filter(s -> !s.at().isBefore(from) && !s.at().isAfter(to))
                    .toList();
        }
        List<GpuSeries> out = new ArrayList<>();
        for (int i = 0; i < mine.accelerators(); i++) {
            out.add(new GpuSeries(pod, Integer.toString(i), within));
        }
        return out;
    }

    /**
     * The latest reading of a pod's accelerators; before the first sample (or for a pod the exporter never sees) what
     * its profiles give at {@code now}, as the device itself would report.
     */
    Reading reading(Pod pod, Instant now) {
        Reading last = latest.get(SimState.key(pod));
        if (last != null) {
            return last;
        }
        List<Segment> profile = profile(pod);
        if (profile.isEmpty()) {
            profile = List.of(new Segment(0, null));
        }
        String started = pod.getStatus() == null ? null : pod.getStatus().getStartTime();
        Duration ran = started == null ? Duration.ZERO : Duration.between(Instant.parse(started), now);
        return new Reading(at(profile, ran), at(memoryProfile(pod, profile), ran));
    }

    /** The pods of {@code namespace} named {@code prefix…} with samples, deleted ones still kept included. */
    List<String> pods(String namespace, String prefix) {
        String start = namespace + "/" + prefix;
        return byPod.keySet().stream()
                .filter(k -> k.startsWith(start))
                .map(k -> k.substring(namespace.length() + 1))
                .sorted()
                .toList();
    }

    /** A pod was deleted at {@code now}: its latest reading goes, its samples are kept for {@link #RETAIN}. */
    void forget(String namespace, String pod, Instant now) {
        latest.remove(namespace + "/" + pod);
        if (byPod.containsKey(namespace + "/" + pod)) {
            gone.put(namespace + "/" + pod, now);
        }
    }

    private int accelerators(Pod pod) {
        Map<String, Long> requested = PodRequests.of(pod.getSpec());
        long milli = acceleratorResources.stream()
                .mapToLong(r -> requested.getOrDefault(r, 0L))
                .sum();
        return (int) (milli / 1000);
    }

    /** The pod's utilisation profile; empty for {@code none}. */
    static List<Segment> profile(Pod pod) {
        String value = env(pod, UTIL_ENV);
        if (value != null && value.trim().equalsIgnoreCase("none")) {
            return List.of();
        }
        List<Segment> parsed = value == null ? null : parse(value);
        if (parsed != null) {
            return parsed;
        }
        String kind = pod.getMetadata().getLabels() == null
                ? null
                : pod.getMetadata().getLabels().get(SimLabels.KIND);
        boolean interactive = kind != null && SimLabels.INTERACTIVE_KINDS.contains(kind);
        return List.of(new Segment(interactive ? 0 : 90, null));
    }

    /** The pod's memory profile: {@value #MEMORY_ENV} when readable, else the utilisation's. */
    static List<Segment> memoryProfile(Pod pod, List<Segment> utilisation) {
        String value = env(pod, MEMORY_ENV);
        List<Segment> parsed = value == null ? null : parse(value);
        return parsed != null ? parsed : utilisation;
    }

    private static String env(Pod pod, String name) {
        return pod.getSpec().getContainers().stream()
                .flatMap(c -> c.getEnv() == null ? java.util.stream.Stream.empty() : c.getEnv().stream())
                .filter(e -> name.equals(e.getName()))
                .map(EnvVar::getValue)
                .filter(Objects::nonNull)
                .findFirst()
                .orElse(null);
    }

    /** {@code 90}, {@code 80@60s,0}, {@code 0@30s,100@10s,5}; null when unreadable. */
    static List<Segment> parse(String value) {
        List<Segment> out = new ArrayList<>();
        for (String part : value.split(",")) {
            String[] p = part.trim().split("@", 2);
            try {
                double percent = Double.parseDouble(p[0].trim());
                Duration length = p.length == 2 ? Kubelet.parse(p[1].trim()) : null;
                if (percent < 0 || percent > 100 || (p.length == 2 && length == null)) {
                    return null;
                }
                out.add(new Segment(percent, length));
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return out.isEmpty() ? null : out;
    }

    /** The utilisation a profile gives after the pod has run for {@code ran}. */
    static double at(List<Segment> profile, Duration ran) {
        Duration start = Duration.ZERO;
        for (Segment s : profile) {
            if (s.length() == null || ran.compareTo(start.plus(s.length())) < 0) {
                return s.percent();
            }
            start = start.plus(s.length());
        }
        return profile.get(profile.size() - 1).percent();
    }
}
