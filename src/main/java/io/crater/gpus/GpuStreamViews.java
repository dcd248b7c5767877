package io.crater.gpus;

import java.time.Instant;
import java.util.List;

/** The events of a job's live GPU metrics stream (docs/monitoring.md). Readings the source lacks are null. */
public final class GpuStreamViews {

    private GpuStreamViews() {}

    /**
     * One card of the job at one step.
     *
     * @param node the node's name ({@code Hostname}); null for a card known only from utilisation history
     * @param index the card's index on its node ({@code gpu})
     * @param model the exporter's {@code modelName}
     * @param utilisation percent
     * @param memoryUsedMiB framebuffer memory in use, MiB
     * @param memoryTotalMiB used + free, MiB
     * @param powerWatts power draw, W
     * @param temperatureC temperature, °C
     */
    public record CardPoint(
            String node,
            Integer index,
            String uuid,
            String model,
            String pod,
            Double utilisation,
            Long memoryUsedMiB,
            Long memoryTotalMiB,
            Double powerWatts,
            Double temperatureC) {

        static CardPoint of(CardReading r) {
            return new CardPoint(
                    r.node(),
                    r.index(),
                    r.uuid(),
                    r.modelName(),
                    r.pod(),
                    r.utilisation(),
                    r.memoryUsedMiB(),
                    r.memoryTotalMiB(),
                    r.powerWatts(),
                    r.temperatureC());
        }
    }

    /** What the job's cards read at one step; its event id is {@code at} in epoch milliseconds. */
    public record Sample(Instant at, List<CardPoint> cards) {

        public Sample {
            cards = List.copyOf(cards);
        }

        String id() {
            return Long.toString(at.toEpochMilli());
        }
    }

    /**
     * The first event of every connection: the recent samples (after Last-Event-ID when given), oldest first.
     *
     * @param stepSeconds how often the feed reads the job's cards
     * @param unavailable why the latest read failed; null when it did not
     */
    public record Window(String job, double stepSeconds, List<Sample> samples, String unavailable) {}

    /** A step whose read failed, with the reason; the chart keeps its points. */
    public record Unavailable(Instant at, String reason) {}

    /** The last event: the job ended (or was deleted: state null). */
    public record End(String job, String state) {}
}
