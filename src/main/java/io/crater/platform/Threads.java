package io.crater.platform;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/** Crater's own background threads. */
public final class Threads {

    private Threads() {}

    /** A scheduler with one daemon thread named {@code name}, for a loop that must not hold the JVM at exit. */
    public static ScheduledExecutorService scheduler(String name) {
        return Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }
}
