package io.crater.gpus;

import io.smallrye.mutiny.subscription.MultiEmitter;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * One followed job's feed: the samples its poller read (the last {@code kept}) and the followers it fans them out to.
 * A follower gets its window once the feed is seeded (at once when it already is), then every sample, failure and
 * the end. Nothing here blocks: emitting hands the event to the follower's bounded buffer. Emitting happens under the
 * feed's lock so a follower never sees a sample before its window; nothing called under it takes another lock.
 */
final class JobGpuFeed {

    /** One event as it goes out: SSE name, id (null: none), JSON data (null: a comment line). */
    record FeedEvent(String name, String id, String json) {

        static final FeedEvent HEARTBEAT = new FeedEvent("heartbeat", null, null);
    }

    /** A follower: where its events go, the id it resumes after (null: none) and how many samples its window has. */
    record Follower(MultiEmitter<? super FeedEvent> emitter, Long after, int windowSteps) {}

    final long jobId;
    final String publicId;
    private final int kept;
    private final double stepSeconds;
    private final Function<Object, String> json;
    private final Deque<GpuStreamViews.Sample> recent = new ArrayDeque<>();
    private final List<Follower> followers = new ArrayList<>();
    private boolean seeded;
    private boolean ended;
    private String unavailable;
    /** The poller's schedule, cancelled when the feed stops. */
    ScheduledFuture<?> schedule;
    /** Whether a read is under way: a slow source skips steps instead of piling reads up. */
    final AtomicBoolean reading = new AtomicBoolean();

    JobGpuFeed(long jobId, String publicId, int kept, double stepSeconds, Function<Object, String> json) {
        this.jobId = jobId;
        this.publicId = publicId;
        this.kept = kept;
        this.stepSeconds = stepSeconds;
        this.json = json;
    }

    /** Adds a follower; it gets its window now when the feed is seeded, else when it is. */
    synchronized void add(Follower f) {
        followers.add(f);
        if (seeded) {
            f.emitter().emit(window(f));
        }
    }

    /** Removes a follower; true when none is left. */
    synchronized boolean remove(Follower f) {
        followers.remove(f);
        return followers.isEmpty();
    }

    synchronized int followers() {
        return followers.size();
    }

    /** The first read: the history before it and its own sample (null: it failed, with {@code reason}). */
    synchronized void seed(List<GpuStreamViews.Sample> history, GpuStreamViews.Sample first, String reason) {
        history.forEach(this::keep);
        if (first != null) {
            keep(first);
        }
        unavailable = reason;
        seeded = true;
        followers.forEach(f -> f.emitter().emit(window(f)));
    }

    /** A step's sample, to every follower. */
    synchronized void sampled(GpuStreamViews.Sample s) {
        if (!keep(s)) {
            return;
        }
        unavailable = null;
        FeedEvent e = new FeedEvent("sample", s.id(), json.apply(s));
        followers.forEach(f -> f.emitter().emit(e));
    }

    /** A step whose read failed, to every follower. */
    synchronized void failed(Instant at, String reason) {
        unavailable = reason;
        FeedEvent e = new FeedEvent("unavailable", null, json.apply(new GpuStreamViews.Unavailable(at, reason)));
        followers.forEach(f -> f.emitter().emit(e));
    }

    /** The job ended: every follower gets the end and its stream completes; later followers too. */
    synchronized void end(String state) {
        ended = true;
        seeded = true;
        FeedEvent e = new FeedEvent("end", null, json.apply(new GpuStreamViews.End(publicId, state)));
        for (Follower f : List.copyOf(followers)) {
            f.emitter().emit(e);
            f.emitter().complete();
        }
    }

    synchronized boolean ended() {
        return ended;
    }

    /** A heartbeat to every follower that has had its window. */
    synchronized void heartbeat() {
        if (seeded) {
            followers.forEach(f -> f.emitter().emit(FeedEvent.HEARTBEAT));
        }
    }

    /** The time of the newest sample kept; null when none is. */
    synchronized Instant newest() {
        return recent.isEmpty() ? null : recent.peekLast().at();
    }

    /** Keeps a sample newer than the newest kept (an older one is dropped: ids only grow); false when dropped. */
    private boolean keep(GpuStreamViews.Sample s) {
        if (!recent.isEmpty() && !s.at().isAfter(recent.peekLast().at())) {
            return false;
        }
        recent.addLast(s);
        while (recent.size() > kept) {
            recent.removeFirst();
        }
        return true;
    }

    /** The window of a follower: the last {@code windowSteps} samples after its Last-Event-ID. */
    private FeedEvent window(Follower f) {
        List<GpuStreamViews.Sample> after = recent.stream()
                .filter(s -> f.after() == null || s.at().toEpochMilli() > f.after())
                .toList();
        List<GpuStreamViews.Sample> shown = after.subList(Math.max(0, after.size() - f.windowSteps()), after.size());
        String id = shown.isEmpty()
                ? (f.after() == null ? null : Long.toString(f.after()))
                : shown.get(shown.size() - 1).id();
        return new FeedEvent(
                "window", id, json.apply(new GpuStreamViews.Window(publicId, stepSeconds, shown, unavailable)));
    }
}
