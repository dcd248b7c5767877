package io.crater.sim.cluster;

import io.crater.sim.apiserver.PodLogSource;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * What the simulated containers write: a bounded buffer of lines per pod and the followers waiting for more.
 * The kubelet of the simulator appends; the API server's {@code pods/log} handler reads and follows.
 */
public final class PodLogs implements PodLogSource {

    private static final int MAX_LINES = 10_000;

    private final Map<String, Log> logs = new ConcurrentHashMap<>();

    private static final class Log {
        final Deque<Line> lines = new ArrayDeque<>();
        final List<Follower> followers = new CopyOnWriteArrayList<>();
        boolean ended;
    }

    private static String key(String namespace, String pod) {
        return namespace + "/" + pod;
    }

    /** Appends a line written by the pod's container and hands it to every follower. */
    public void append(String namespace, String pod, Instant time, String text) {
        Log log = logs.computeIfAbsent(key(namespace, pod), k -> new Log());
        Line line = new Line(time, text);
        synchronized (log) {
            if (log.ended) {
                return;
            }
            log.lines.addLast(line);
            if (log.lines.size() > MAX_LINES) {
                log.lines.removeFirst();
            }
        }
        log.followers.forEach(f -> f.line(line));
    }

    /** Marks the container as stopped: followers are ended, later followers get the lines and end at once. */
    public void end(String namespace, String pod) {
        Log log = logs.computeIfAbsent(key(namespace, pod), k -> new Log());
        synchronized (log) {
            log.ended = true;
        }
        log.followers.forEach(Follower::end);
        log.followers.clear();
    }

    /** Forgets a deleted pod's log; followers are ended. */
    public void remove(String namespace, String pod) {
        Log log = logs.remove(key(namespace, pod));
        if (log != null) {
            log.followers.forEach(Follower::end);
        }
    }

    @Override
    public List<Line> read(
            String namespace, String pod, int tailLines, Follower follower, Consumer<Runnable> onUnsubscribe) {
        Log log = logs.computeIfAbsent(key(namespace, pod), k -> new Log());
        List<Line> snapshot;
        boolean ended;
        synchronized (log) {
            snapshot = new ArrayList<>(log.lines);
            ended = log.ended;
            if (follower != null && !ended) {
                log.followers.add(follower);
                onUnsubscribe.accept(() -> log.followers.remove(follower));
            }
        }
        if (tailLines >= 0 && snapshot.size() > tailLines) {
            snapshot = snapshot.subList(snapshot.size() - tailLines, snapshot.size());
        }
        if (follower != null && ended) {
            follower.end();
        }
        return snapshot;
    }
}
