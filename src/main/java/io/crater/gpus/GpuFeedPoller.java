package io.crater.gpus;

import io.crater.cluster.ClusterConfig;
import io.crater.idle.GpuHistory;
import io.crater.job.JobNames;
import io.crater.job.JobService;
import io.crater.platform.OnContext;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * Reads a followed job's cards once per step for its feed: one query of the card source (counted in
 * {@code crater_gpu_metric_queries_total{kind="step"}}), the job's state from the database, then the sample (or the
 * failure) to the feed. The first read also loads the utilisation history for the first window (one query,
 * {@code kind="window"}). Everything is asynchronous: the HTTP client and the database answer on their own threads.
 */
@ApplicationScoped
class GpuFeedPoller {

    /** States after which a job holds no cards again. */
    static final Set<String> FINISHED = Set.of("Succeeded", "Failed", "Stopped", "Rejected");

    /** What to do when a feed's job has ended (state null: deleted). */
    interface Ended {
        void ended(JobGpuFeed feed, String state);
    }

    /** One step: when it was read, the job's cards (null when the read failed, with why) and the job's state. */
    record Step(Instant at, List<CardReading> cards, String why, String state) {

        boolean over() {
            return state == null || FINISHED.contains(state);
        }

        GpuStreamViews.Sample sample() {
            return new GpuStreamViews.Sample(
                    at, cards.stream().map(GpuStreamViews.CardPoint::of).toList());
        }
    }

    @Inject
    CardSources sources;

    @Inject
    GpuHistory history;

    @Inject
    JobService jobs;

    @Inject
    ClusterConfig cluster;

    @Inject
    GpuStreamConfig config;

    @Inject
    MeterRegistry meters;

    @Inject
    Clock clock;

    /** The first read and the history before it; then {@code seeded} runs, or {@code ended} when the job is over. */
    void seed(JobGpuFeed feed, Runnable seeded, Ended ended) {
        read(feed)
                .flatMap(step -> window(feed, step).map(h -> {
                    feed.seed(h, step.cards() == null ? null : step.sample(), step.why());
                    return step;
                }))
                .subscribe()
                .with(
                        step -> {
                            if (step.over()) {
                                ended.ended(feed, step.state());
                            } else {
                                seeded.run();
                            }
                        },
                        e -> {
                            feed.seed(List.of(), null, message(e));
                            seeded.run();
                        });
    }

    /** One step's read, unless the previous one is still under way (a slow source skips steps). */
    void poll(JobGpuFeed feed, Ended ended) {
        if (!feed.reading.compareAndSet(false, true)) {
            return;
        }
        read(feed)
                .subscribe()
                .with(
                        step -> {
                            feed.reading.set(false);
                            if (step.cards() != null) {
                                feed.sampled(step.sample());
                            } else {
                                feed.failed(step.at(), step.why());
                            }
                            if (step.over()) {
                                ended.ended(feed, step.state());
                            }
                        },
                        e -> {
                            feed.reading.set(false);
                            feed.failed(clock.instant(), message(e));
                        });
    }

    private Uni<Step> read(JobGpuFeed feed) {
        Instant at = clock.instant();
        Uni<Step> cards;
        if (sources.get().isEmpty()) {
            cards = Uni.createFrom().item(new Step(at, null, sources.whyNone(), null));
        } else {
            meters.counter("crater.gpu.metric.queries", "kind", "step").increment();
            String prefix = JobNames.volcanoName(feed.publicId) + "-";
            cards = sources.get()
                    .get()
                    .cards()
                    .map(all -> new Step(at, mine(all, prefix), null, null))
                    .onFailure()
                    .recoverWithItem(e -> new Step(at, null, message(e), null));
        }
        return cards.flatMap(s -> OnContext.run(() -> Panache.withSession(() -> jobs.state(feed.jobId)))
                .map(state -> new Step(s.at(), s.cards(), s.why(), state)));
    }

    /** The job's cards: those its pods ({@code c-<id>-…} in the jobs' namespace) hold. */
    List<CardReading> mine(List<CardReading> all, String prefix) {
        String namespace = cluster.namespace();
        return all.stream()
                .filter(c -> c.held() && c.pod().startsWith(prefix))
                .filter(c -> c.namespace() == null || c.namespace().equals(namespace))
                .toList();
    }

    /** The history of the window before the first step; none when it cannot be read (the window then fills live). */
    private Uni<List<GpuStreamViews.Sample>> window(JobGpuFeed feed, Step first) {
        var step = config.step();
        Instant from = first.at().minus(step.multipliedBy(config.window()));
        meters.counter("crater.gpu.metric.queries", "kind", "window").increment();
        return OnContext.run(() -> Panache.withSession(() -> history.recent(feed.jobId, from, first.at(), step)))
                .map(series -> GpuStreamHistory.samples(series, first.cards(), first.at()))
                .onFailure()
                .recoverWithItem(List.of());
    }

    private static String message(Throwable e) {
        return e.getMessage() == null ? e.toString() : e.getMessage();
    }
}
