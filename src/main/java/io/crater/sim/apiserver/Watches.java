package io.crater.sim.apiserver;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The store's watches and the bounded log of changes they replay from: each change goes to the open watches of its
 * resource, as ADDED, MODIFIED or DELETED as the watch's selectors see the object before and after (an object
 * relabelled into or out of a selector arrives as ADDED or DELETED). Used under the store's lock only.
 */
final class Watches {

    /** Receives a watch's events, one JSON document each; closed when the watch ends. */
    interface Sink {
        void send(String event);

        void close();
    }

    /** One change of the store: the object's new state and, unless it was created, its state before. */
    record Change(ApiResource resource, String type, KubeStore.Entry entry, KubeStore.Entry previous) {}

    /** An open watch. */
    final class Watch {
        final ApiResource resource;
        final String version;
        final String namespace;
        final Selectors.Selector labels;
        final Selectors.Selector fields;
        final boolean bookmarks;
        final Sink sink;

        private Watch(
                ApiResource resource,
                String version,
                String namespace,
                Selectors.Selector labels,
                Selectors.Selector fields,
                boolean bookmarks,
                Sink sink) {
            this.resource = resource;
            this.version = version;
            this.namespace = namespace;
            this.labels = labels;
            this.fields = fields;
            this.bookmarks = bookmarks;
            this.sink = sink;
        }

        boolean sees(KubeStore.Entry e) {
            return e != null
                    && (namespace == null || namespace.equals(e.namespace()))
                    && labels.matches(e.labels())
                    && StoredObjects.fieldsMatch(fields, resource, e);
        }

        void deliver(Change c) {
            boolean now = sees(c.entry());
            boolean before = !c.type().equals("ADDED") && sees(c.previous());
            String type;
            if (c.type().equals("DELETED")) {
                type = before || now ? "DELETED" : null;
            } else if (now && before) {
                type = "MODIFIED";
            } else if (now) {
                type = "ADDED";
            } else if (before) {
                type = "DELETED";
            } else {
                type = null;
            }
            if (type != null) {
                sink.send(event(type, c.entry().json()));
            }
        }

        /** Stops the watch; the sink is not called again. */
        void cancel() {
            synchronized (lock) {
                open.remove(this);
            }
        }
    }

    private final Object lock;
    private final int capacity;
    private final ArrayDeque<Change> log = new ArrayDeque<>();
    private final List<Watch> open = new ArrayList<>();
    private long compacted = 1;

    /**
     * @param lock the store's lock, which every call holds
     * @param capacity the changes kept for replay
     */
    Watches(Object lock, int capacity) {
        this.lock = lock;
        this.capacity = capacity;
    }

    /** A watch, not yet receiving changes: {@link #add} or {@link #replay} it. */
    Watch open(
            ApiResource r,
            String version,
            String namespace,
            Selectors.Selector labels,
            Selectors.Selector fields,
            boolean bookmarks,
            Sink sink) {
        return new Watch(r, version, namespace, labels, fields, bookmarks, sink);
    }

    /** Starts handing changes to the watch. */
    void add(Watch w) {
        open.add(w);
    }

    /**
     * Replays the changes after {@code from} to the watch and adds it, or sends a 410 {@code Expired} error event and
     * closes it when the log no longer holds them.
     */
    void replay(Watch w, long from) {
        if (from < compacted) {
            w.sink.send(event(
                    "ERROR",
                    ApiError.status(410, "Expired", "too old resource version: " + from + " (" + compacted + ")")));
            w.sink.close();
            return;
        }
        for (Change c : log) {
            if (c.entry().revision() > from && c.resource().key().equals(w.resource.key())) {
                w.deliver(c);
            }
        }
        open.add(w);
    }

    /** Logs a change and hands it to the open watches of its resource. */
    void record(Change c) {
        log.addLast(c);
        if (log.size() > capacity) {
            compacted = log.removeFirst().entry().revision();
        }
        for (Watch w : List.copyOf(open)) {
            if (w.resource.key().equals(c.resource().key())) {
                w.deliver(c);
            }
        }
    }

    /** Sends a bookmark at {@code revision} to every watch that asked for them. */
    void bookmarks(long revision) {
        for (Watch w : open) {
            if (w.bookmarks) {
                w.sink.send("{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"" + w.resource.kind()
                        + "\",\"apiVersion\":\"" + w.resource.apiVersion(w.version)
                        + "\",\"metadata\":{\"resourceVersion\":\"" + revision + "\"}}}");
            }
        }
    }

    int count() {
        return open.size();
    }

    static String event(String type, String objectJson) {
        return "{\"type\":\"" + type + "\",\"object\":" + objectJson + "}";
    }
}
