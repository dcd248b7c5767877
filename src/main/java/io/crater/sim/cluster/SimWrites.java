package io.crater.sim.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The simulated cluster's writes of one tick, sent to its API server several at a time. Each write is a blocking
 * HTTP request; one after another, a tick that starts or ends hundreds of pods took seconds, and the pods it ended
 * late held their quota that much longer. A real cluster's kubelets write in parallel too (one per node).
 */
final class SimWrites {

    /** How many writes are in flight at once. */
    static final int PARALLEL = 32;

    private static final ExecutorService POOL = Executors.newFixedThreadPool(PARALLEL, r -> {
        Thread t = new Thread(r, "crater-sim-write");
        t.setDaemon(true);
        return t;
    });

    /**
     * Best-effort writes (events) have threads of their own: in the tick's pool a burst of them queued ahead of the
     * tick's writes and held the tick up.
     */
    private static final ExecutorService BACKGROUND = Executors.newFixedThreadPool(2, r -> {
        Thread t = new Thread(r, "crater-sim-event");
        t.setDaemon(true);
        return t;
    });

    /** Sends a best-effort write without waiting for it (events); a failure is the write's own to handle. */
    static void background(Runnable send) {
        BACKGROUND.execute(send);
    }

    /**
     * One write, what follows it on the tick's thread when it took place, and what undoes the tick's own bookkeeping
     * when it did not (it returned false or threw).
     */
    record Write(java.util.concurrent.Callable<Boolean> send, Runnable then, Runnable otherwise) {}

    private static final Runnable NOTHING = () -> {};

    private final List<Write> writes = new ArrayList<>();

    void add(java.util.concurrent.Callable<Boolean> send, Runnable then) {
        writes.add(new Write(send, then, NOTHING));
    }

    void add(java.util.concurrent.Callable<Boolean> send, Runnable then, Runnable otherwise) {
        writes.add(new Write(send, then, otherwise));
    }

    /** A write with nothing to follow it. */
    void add(Runnable send) {
        writes.add(new Write(
                () -> {
                    send.run();
                    return true;
                },
                NOTHING,
                NOTHING));
    }

    /**
     * Sends every write, waits for all, then runs the follow-ups of those that succeeded, in the order they were
     * added, on the calling thread. The first failure is thrown after that.
     */
    void flush() {
        if (writes.isEmpty()) {
            return;
        }
        List<Future<Boolean>> sent = new ArrayList<>(writes.size());
        for (Write w : writes) {
            sent.add(POOL.submit(w.send()));
        }
        RuntimeException failure = null;
        for (int i = 0; i < writes.size(); i++) {
            try {
                if (sent.get(i).get()) {
                    writes.get(i).then().run();
                } else {
                    writes.get(i).otherwise().run();
                }
            } catch (ExecutionException e) {
                writes.get(i).otherwise().run();
                if (failure == null) {
                    failure =
                            e.getCause() instanceof RuntimeException re ? re : new IllegalStateException(e.getCause());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                writes.clear();
                throw new IllegalStateException("interrupted while writing", e);
            }
        }
        writes.clear();
        if (failure != null) {
            throw failure;
        }
    }
}
