package io.crater.sim.apiserver;

import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;

/**
 * What the containers behind the API server wrote, as {@code pods/{name}/log} reads and follows it. The API server
 * serves the protocol; what plays the pods (a kubelet) keeps the lines.
 */
public interface PodLogSource {

    /** One line with the time it was written. */
    record Line(Instant time, String text) {}

    /** A follower: receives each new line, then {@code end} when the container stops. */
    interface Follower {
        void line(Line line);

        void end();
    }

    /**
     * Reads the last {@code tailLines} lines (all when negative) and, when {@code follower} is given and the
     * container still runs, registers it atomically so no line is lost or repeated between the two.
     *
     * @param onUnsubscribe receives what removes the follower again (the client went away)
     * @return the lines so far
     */
    List<Line> read(String namespace, String pod, int tailLines, Follower follower, Consumer<Runnable> onUnsubscribe);
}
