package io.crater.policy;

import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * The OAuth 2.0 device authorization grant (RFC 8628) as Crater answers it: the user code a person types (8
 * letters of an alphabet without vowels and look-alikes, shown as {@code XXXX-XXXX}, read back whatever the case and
 * dashes), and what a poll of the token endpoint gets, given the request's state and the times of its polls.
 */
public final class DeviceGrant {

    /** Consonants only: no vowels (no words), no 0/O or 1/I/L confusion with digits. */
    public static final String ALPHABET = "BCDFGHJKLMNPQRSTVWXZ";

    /** Letters in a user code: 20^8, about 2.6 × 10^10 codes, 34.6 bits. */
    public static final int LENGTH = 8;

    /** How much longer a client must wait after polling too soon (RFC 8628 3.5). */
    public static final int SLOW_DOWN_STEP_SECONDS = 5;

    private DeviceGrant() {}

    /** Where a request stands. */
    public enum State {
        /** Nobody has approved or denied it yet. */
        PENDING,
        /** A signed-in person approved it; the client has not collected its token yet. */
        APPROVED,
        /** A signed-in person denied it. */
        DENIED,
        /** The client collected its token: the device code is spent. */
        ISSUED
    }

    /** What a poll gets: an RFC 8628 / RFC 6749 error code, or the token. */
    public enum Answer {
        AUTHORIZATION_PENDING("authorization_pending"),
        SLOW_DOWN("slow_down"),
        ACCESS_DENIED("access_denied"),
        EXPIRED_TOKEN("expired_token"),
        INVALID_GRANT("invalid_grant"),
        ISSUE(null);

        private final String error;

        Answer(String error) {
            this.error = error;
        }

        /** The {@code error} of the RFC 6749 answer, null for {@link #ISSUE}. */
        public String error() {
            return error;
        }
    }

    /**
     * A request as a poll finds it.
     *
     * @param lastPolledAt null before the first poll
     * @param intervalSeconds the interval the client must keep now
     */
    public record Request(State state, Instant expiresAt, Instant lastPolledAt, int intervalSeconds) {}

    /** A poll's answer and the interval the client must keep from now on (grown after a slow_down). */
    public record Decision(Answer answer, int intervalSeconds) {}

    /** A new user code, in its stored form (8 letters, no dash). */
    public static String newUserCode(RandomGenerator random) {
        StringBuilder sb = new StringBuilder(LENGTH);
        for (int i = 0; i < LENGTH; i++) {
            sb.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        }
        return sb.toString();
    }

    /** How a person reads a code: {@code BCDF-GHJK}. */
    public static String display(String code) {
        return code.substring(0, LENGTH / 2) + "-" + code.substring(LENGTH / 2);
    }

    /**
     * The stored form of what a person typed: upper case, without dashes and spaces; empty when it cannot be a code
     * (wrong length, a letter outside the alphabet).
     */
    public static Optional<String> normalise(String typed) {
        if (typed == null || typed.length() > 4 * LENGTH) {
            return Optional.empty();
        }
        String s = typed.toUpperCase(Locale.ROOT).replaceAll("[\\s\\-\\u2010-\\u2014]", "");
        if (s.length() != LENGTH) {
            return Optional.empty();
        }
        for (int i = 0; i < s.length(); i++) {
            if (ALPHABET.indexOf(s.charAt(i)) < 0) {
                return Optional.empty();
            }
        }
        return Optional.of(s);
    }

    /**
     * What a poll at {@code now} gets. A spent code is invalid; an expired one says so, whatever was decided; a
     * denied one is refused; an approved one gets its token however soon it polls; a pending one polled before its
     * interval has passed since the last poll is told to slow down, and its interval grows by 5 s for this and every
     * later poll.
     */
    public static Decision poll(Request r, Instant now) {
        int interval = r.intervalSeconds();
        if (r.state() == State.ISSUED) {
            return new Decision(Answer.INVALID_GRANT, interval);
        }
        if (!now.isBefore(r.expiresAt())) {
            return new Decision(Answer.EXPIRED_TOKEN, interval);
        }
        if (r.state() == State.DENIED) {
            return new Decision(Answer.ACCESS_DENIED, interval);
        }
        if (r.state() == State.APPROVED) {
            return new Decision(Answer.ISSUE, interval);
        }
        if (r.lastPolledAt() != null && now.isBefore(r.lastPolledAt().plusSeconds(interval))) {
            return new Decision(Answer.SLOW_DOWN, interval + SLOW_DOWN_STEP_SECONDS);
        }
        return new Decision(Answer.AUTHORIZATION_PENDING, interval);
    }

    /** Whether a person may still see, approve or deny a request: it is pending and has not expired. */
    public static boolean open(State state, Instant expiresAt, Instant now) {
        return state == State.PENDING && now.isBefore(expiresAt);
    }
}
