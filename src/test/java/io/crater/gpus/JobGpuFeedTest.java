package io.crater.gpus;

import static org.assertj.core.api.Assertions.assertThat;

import io.crater.platform.Json;
import io.crater.policy.IdlePolicy;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.helpers.test.AssertSubscriber;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A job's feed without a server: windows, Last-Event-ID, the kept samples, failures, the end; and history's shape. */
class JobGpuFeedTest {

    static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

    static GpuStreamViews.Sample at(int seconds, double utilisation) {
        return new GpuStreamViews.Sample(
                T0.plusSeconds(seconds),
                List.of(new GpuStreamViews.CardPoint(
                        "gpu-a", 2, "GPU-1", "NVIDIA RTX 4090", "c-j1-main-0", utilisation, 100L, 24564L, 80.0, 41.0)));
    }

    static JobGpuFeed feed(int kept) {
        return new JobGpuFeed(7, "j1", kept, 5, Json::write);
    }

    /** A follower subscribed to the feed, with every event it got. */
    static AssertSubscriber<JobGpuFeed.FeedEvent> follow(JobGpuFeed feed, Long after, int windowSteps) {
        return Multi.createFrom()
                .<JobGpuFeed.FeedEvent>emitter(e -> feed.add(new JobGpuFeed.Follower(e, after, windowSteps)))
                .subscribe()
                .withSubscriber(AssertSubscriber.create(Long.MAX_VALUE));
    }

    @Test
    void aFollowerBeforeTheSeedGetsItsWindowThenEachSampleOnce() {
        JobGpuFeed feed = feed(10);
        var early = follow(feed, null, 10);
        assertThat(early.getItems()).isEmpty();
        feed.seed(List.of(at(0, 10), at(5, 20)), at(10, 30), null);
        feed.sampled(at(15, 40));
        feed.sampled(at(15, 99)); // same time again: dropped, ids only grow
        assertThat(early.getItems()).extracting(JobGpuFeed.FeedEvent::name).containsExactly("window", "sample");
        JobGpuFeed.FeedEvent window = early.getItems().get(0);
        assertThat(window.id()).isEqualTo(Long.toString(T0.plusSeconds(10).toEpochMilli()));
        assertThat(window.json())
                .contains("\"stepSeconds\":5.0")
                .contains("\"utilisation\":10.0")
                .contains("\"utilisation\":30.0");
        assertThat(early.getItems().get(1).id())
                .isEqualTo(Long.toString(T0.plusSeconds(15).toEpochMilli()));
        assertThat(early.getItems().get(1).json())
                .contains("\"memoryUsedMiB\":100")
                .contains("\"memoryTotalMiB\":24564")
                .contains("\"powerWatts\":80.0")
                .contains("\"temperatureC\":41.0");
    }

    @Test
    void aReconnectGetsOnlyLaterSamplesAndTheWindowKeepsTheLastOnes() {
        JobGpuFeed feed = feed(3);
        feed.seed(List.of(), at(0, 1), null);
        for (int i = 1; i <= 4; i++) {
            feed.sampled(at(5 * i, i));
        }
        // Kept: 10, 15, 20 s. A reconnect after 15 s gets 20 s only; a window of 1 the newest only.
        var resumed = follow(feed, T0.plusSeconds(15).toEpochMilli(), 10);
        assertThat(resumed.getItems().get(0).json())
                .contains(T0.plusSeconds(20).toString())
                .doesNotContain(T0.plusSeconds(15).toString());
        var all = follow(feed, null, 10);
        assertThat(all.getItems().get(0).json())
                .contains(T0.plusSeconds(10).toString())
                .doesNotContain(T0.plusSeconds(5).toString());
        var one = follow(feed, null, 1);
        assertThat(one.getItems().get(0).json())
                .contains(T0.plusSeconds(20).toString())
                .doesNotContain(T0.plusSeconds(15).toString());
        // Nothing after its id: the window says so and keeps the id it resumed from.
        var upToDate = follow(feed, T0.plusSeconds(20).toEpochMilli(), 10);
        assertThat(upToDate.getItems().get(0).id())
                .isEqualTo(Long.toString(T0.plusSeconds(20).toEpochMilli()));
        assertThat(upToDate.getItems().get(0).json()).contains("\"samples\":[]");
    }

    @Test
    void failuresReachFollowersAndTheEndCompletesThem() {
        JobGpuFeed feed = feed(10);
        feed.seed(List.of(), null, "the DCGM exporter at x could not be read");
        var f = follow(feed, null, 10);
        assertThat(f.getItems().get(0).json()).contains("\"unavailable\":\"the DCGM exporter at x could not be read\"");
        feed.failed(T0, "Prometheus down");
        feed.heartbeat();
        feed.end("Stopped");
        assertThat(f.getItems())
                .extracting(JobGpuFeed.FeedEvent::name)
                .containsExactly("window", "unavailable", "heartbeat", "end");
        assertThat(f.getItems().get(1).json()).contains("\"reason\":\"Prometheus down\"");
        assertThat(f.getItems().get(3).json()).isEqualTo("{\"job\":\"j1\",\"state\":\"Stopped\"}");
        f.assertCompleted();
        assertThat(feed.ended()).isTrue();
    }

    @Test
    void historyIsGroupedByTimeAndNamedByTheLiveCardOfTheSamePodAndIndex() {
        CardReading live = new CardReading(
                "gpu-a", 2, "GPU-1", "NVIDIA RTX 4090", "crater-jobs", "c-j1-main-0", 50.0, 1L, 2L, 3.0, 4.0);
        List<IdlePolicy.Series> series = List.of(
                new IdlePolicy.Series(
                        "c-j1-main-0",
                        "2",
                        List.of(new IdlePolicy.Sample(T0, 10), new IdlePolicy.Sample(T0.plusSeconds(5), 20))),
                new IdlePolicy.Series("c-j1-old-0", "0", List.of(new IdlePolicy.Sample(T0, 30))),
                new IdlePolicy.Series("c-j1-main-0", "2", List.of(new IdlePolicy.Sample(T0.plusSeconds(9), 99))));
        List<GpuStreamViews.Sample> out = GpuStreamHistory.samples(series, List.of(live), T0.plusSeconds(9));
        assertThat(out).extracting(GpuStreamViews.Sample::at).containsExactly(T0, T0.plusSeconds(5));
        assertThat(out.get(0).cards())
                .containsExactlyInAnyOrder(
                        new GpuStreamViews.CardPoint(
                                "gpu-a", 2, "GPU-1", "NVIDIA RTX 4090", "c-j1-main-0", 10.0, null, null, null, null),
                        new GpuStreamViews.CardPoint(null, 0, null, null, "c-j1-old-0", 30.0, null, null, null, null));
    }
}
