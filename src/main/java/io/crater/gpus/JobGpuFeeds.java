package io.crater.gpus;

import io.crater.identity.Caller;
import io.crater.job.JobService;
import io.crater.platform.OnContext;
import io.crater.platform.Threads;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.subscription.BackPressureFailure;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The live GPU metrics feeds of followed jobs, one per job on this replica, ref-counted: the first follower starts
 * its job's poller ({@link GpuFeedPoller}), the last one to leave stops it. A follower's events pass through a buffer
 * of {@link GpuStreamConfig#buffer()}; one that falls further behind is disconnected (its client resumes with
 * Last-Event-ID from the window), so a slow follower neither blocks the others nor grows memory.
 */
@ApplicationScoped
public class JobGpuFeeds {

    @Inject
    GpuStreamConfig config;

    @Inject
    GpuFeedPoller poller;

    @Inject
    JobService jobs;

    private final Map<String, JobGpuFeed> feeds = new HashMap<>();
    private final ScheduledExecutorService timer = Threads.scheduler("crater-gpu-feeds");

    void onStart(@Observes StartupEvent event) {
        long every = config.heartbeat().toMillis();
        timer.scheduleAtFixedRate(this::heartbeat, every, every, TimeUnit.MILLISECONDS);
    }

    void onStop(@Observes ShutdownEvent event) {
        timer.shutdownNow();
    }

    /** The job if the caller may read it, as {@code GET /api/v1/jobs/{id}} decides (blocking: call off the event loop). */
    public JobService.JobRef visible(String publicId, Caller caller) {
        return OnContext.run(() -> Panache.withSession(() -> jobs.visible(publicId, caller)))
                .await()
                .indefinitely();
    }

    /** A follower's events: its window, then each step's sample or failure, heartbeats, and the end. */
    Multi<JobGpuFeed.FeedEvent> follow(JobService.JobRef job, int windowSteps, Long after) {
        return Multi.createFrom()
                .<JobGpuFeed.FeedEvent>emitter(e -> join(job, new JobGpuFeed.Follower(e, after, windowSteps)))
                .onOverflow()
                .buffer(config.buffer())
                .onFailure(BackPressureFailure.class)
                .recoverWithCompletion();
    }

    private void join(JobService.JobRef job, JobGpuFeed.Follower f) {
        JobGpuFeed feed;
        synchronized (feeds) {
            feed = feeds.get(job.publicId());
            if (feed == null) {
                feed = new JobGpuFeed(
                        job.id(),
                        job.publicId(),
                        config.window(),
                        config.step().toMillis() / 1000.0,
                        io.crater.platform.Json::write);
                feeds.put(job.publicId(), feed);
                start(feed);
            }
            feed.add(f);
        }
        final JobGpuFeed mine = feed;
        // Leaving may be signalled while the feed emits under its lock: settle it on the feeds' own thread.
        f.emitter().onTermination(() -> timer.execute(() -> leave(mine, f)));
    }

    private void start(JobGpuFeed feed) {
        long step = config.step().toMillis();
        poller.seed(
                feed,
                () -> {
                    synchronized (feeds) {
                        if (feeds.get(feed.publicId) == feed) {
                            feed.schedule = timer.scheduleAtFixedRate(
                                    () -> poller.poll(feed, this::stop), step, step, TimeUnit.MILLISECONDS);
                        }
                    }
                },
                this::stop);
    }

    private void leave(JobGpuFeed feed, JobGpuFeed.Follower f) {
        synchronized (feeds) {
            if (feed.remove(f) && feeds.get(feed.publicId) == feed) {
                feeds.remove(feed.publicId);
                cancel(feed);
            }
        }
    }

    /** The job ended (state null: deleted): its feed stops and tells its followers. */
    private void stop(JobGpuFeed feed, String state) {
        synchronized (feeds) {
            feeds.remove(feed.publicId, feed);
            cancel(feed);
        }
        feed.end(state);
    }

    private static void cancel(JobGpuFeed feed) {
        if (feed.schedule != null) {
            feed.schedule.cancel(false);
        }
    }

    private void heartbeat() {
        java.util.List<JobGpuFeed> all;
        synchronized (feeds) {
            all = java.util.List.copyOf(feeds.values());
        }
        all.forEach(JobGpuFeed::heartbeat);
    }

    /** Jobs followed now on this replica. */
    public int followedJobs() {
        synchronized (feeds) {
            return feeds.size();
        }
    }
}
