package io.crater.sim.cluster;

import java.time.Instant;
import java.util.List;

/**
 * The utilisation samples the simulated GPU exporter took of one accelerator of a pod.
 *
 * @param pod the pod's name
 * @param accelerator the accelerator's index on its node ({@code 0}, {@code 1}, …: the card the pod holds)
 * @param samples oldest first
 */
public record GpuSeries(String pod, String accelerator, List<Sample> samples) {

    public GpuSeries {
        samples = List.copyOf(samples);
    }

    /** A utilisation in percent at a time. */
    public record Sample(Instant at, double percent) {}
}
