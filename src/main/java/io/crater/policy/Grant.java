package io.crater.policy;

import java.time.Instant;

/** A temporary quota grant: adds {@code amount} to both guaranteed and max while {@code start <= now < end}. */
public record Grant(String resource, long amount, Instant start, Instant end) {

    public boolean activeAt(Instant now) {
        return !now.isBefore(start) && now.isBefore(end);
    }
}
