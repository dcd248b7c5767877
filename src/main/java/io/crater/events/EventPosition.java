package io.crater.events;

import java.util.Comparator;

/**
 * Where an event stands in the event log, and its id on the stream ({@code <xid>-<seq>}): the id of the
 * transaction that wrote it, then its row number. Every replica reads the log in this order, so an id means the
 * same place on all of them.
 */
public record EventPosition(long xid, long seq) implements Comparable<EventPosition> {

    private static final Comparator<EventPosition> ORDER =
            Comparator.comparingLong(EventPosition::xid).thenComparingLong(EventPosition::seq);

    @Override
    public int compareTo(EventPosition o) {
        return ORDER.compare(this, o);
    }

    public boolean after(EventPosition o) {
        return compareTo(o) > 0;
    }

    /** The stream id. */
    public String id() {
        return xid + "-" + seq;
    }

    /** The position a stream id names, or null when it names none. */
    public static EventPosition parse(String id) {
        if (id == null) {
            return null;
        }
        String s = id.trim();
        int dash = s.indexOf('-');
        if (dash <= 0 || dash == s.length() - 1) {
            return null;
        }
        try {
            long xid = Long.parseLong(s.substring(0, dash));
            long seq = Long.parseLong(s.substring(dash + 1));
            return xid < 0 || seq < 0 ? null : new EventPosition(xid, seq);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
