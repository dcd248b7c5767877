package io.crater.events;

import java.util.List;

/**
 * A feature whose changes reach the events stream through the event log: it publishes the hub events of a run of
 * consecutive log entries of its kind, each under its entry's position, in order (it may publish only the last
 * entry of a subject, whose state is the newest).
 */
public interface LoggedEvents {

    /** One row of the log. */
    record Entry(EventPosition position, String subject, String data) {}

    /** The log's {@code kind} this feature writes. */
    String kind();

    /** Publishes the entries' events; throws to have the run read again. */
    void publish(List<Entry> entries) throws Throwable;
}
