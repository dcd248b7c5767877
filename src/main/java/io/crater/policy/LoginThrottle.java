package io.crater.policy;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * How many failed sign-ins a username or a client address may have in a fixed window before further attempts
 * are refused until the window ends.
 *
 * @param maxFailures failures allowed in one window
 * @param window length of the window
 */
public record LoginThrottle(int maxFailures, Duration window) {

    /** The failure count a scope has after one more failure at {@code now}. */
    public record Counter(Instant windowStart, int failures) {}

    /** How long to wait before trying again, or empty when an attempt is allowed now. */
    public Optional<Duration> retryAfter(Counter counter, Instant now) {
        if (counter == null || counter.failures() < maxFailures) {
            return Optional.empty();
        }
        Instant end = counter.windowStart().plus(window);
        return now.isBefore(end) ? Optional.of(Duration.between(now, end)) : Optional.empty();
    }

    /** The counter after one more failure: a new window starts when the old one has passed. */
    public Counter afterFailure(Counter counter, Instant now) {
        if (counter == null || !now.isBefore(counter.windowStart().plus(window))) {
            return new Counter(now, 1);
        }
        return new Counter(counter.windowStart(), counter.failures() + 1);
    }
}
