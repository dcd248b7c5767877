package io.crater.cli;

import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * Signing in through the browser, the OAuth 2.0 device authorization grant (RFC 8628): the server hands out a user
 * code, the person approves it on the console's {@code /device} page where they are already signed in (also with an
 * OpenID provider or the directory, which have no password in Crater), and the client polls until the server hands it
 * a personal access token, keeping the interval and growing it by 5 s at each {@code slow_down}.
 */
final class DeviceSignIn {

    static final String GRANT_TYPE = "urn:ietf:params:oauth:grant-type:device_code";

    /** What a sign-in gives: the personal access token, its id and whose it is. */
    record Result(String token, Long tokenId, String username) {}

    /** Waits between polls. */
    interface Sleeper {
        void sleep(Duration d);
    }

    private final Api anonymous;
    private final Messages msg;
    private final PrintStream err;
    private final Sleeper sleeper;
    private final Clock clock;

    DeviceSignIn(Api anonymous, Messages msg, PrintStream err, Sleeper sleeper, Clock clock) {
        this.anonymous = anonymous;
        this.msg = msg;
        this.err = err;
        this.sleeper = sleeper;
        this.clock = clock;
    }

    /** The real clock and a sleeping thread. */
    static Sleeper threadSleeper() {
        return d -> {
            try {
                Thread.sleep(d.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CliException(Exit.ERROR, "interrupted");
            }
        };
    }

    Result run(String clientName) {
        Map<String, Object> started =
                Values.map(anonymous.post("/api/v1/auth/device", Map.of("client_name", clientName)));
        String deviceCode = Values.str(started.get("device_code"));
        long expiresIn = ((Number) started.get("expires_in")).longValue();
        int interval = Math.max(1, ((Number) started.get("interval")).intValue());
        err.println(msg.get(
                "login.device.open",
                Values.str(started.get("verification_uri")),
                Values.str(started.get("user_code")),
                Values.str(started.get("verification_uri_complete")),
                Math.max(1, expiresIn / 60)));
        Instant deadline = clock.instant().plusSeconds(expiresIn);
        while (true) {
            sleeper.sleep(Duration.ofSeconds(interval));
            String error;
            try {
                Map<String, Object> t = Values.map(anonymous.post(
                        "/api/v1/auth/device/token", Map.of("grant_type", GRANT_TYPE, "device_code", deviceCode)));
                return new Result(
                        Values.str(t.get("access_token")),
                        t.get("token_id") instanceof Number n ? n.longValue() : null,
                        Values.str(t.get("username")));
            } catch (Problems.ApiError e) {
                error = e.status() == 400 && e.problem() != null
                        ? Values.str(e.problem().get("error"))
                        : null;
                if (error == null) {
                    throw e;
                }
                interval = next(error, interval, e);
            }
            if (clock.instant().isAfter(deadline.plusSeconds(interval))) {
                throw new CliException(Exit.TIMED_OUT, msg.get("login.device.expired"));
            }
        }
    }

    /** The interval after an error of the token endpoint, or the end of the sign-in. */
    private int next(String error, int interval, Problems.ApiError e) {
        return switch (error) {
            case "authorization_pending" -> interval;
            case "slow_down" -> interval + 5;
            case "access_denied" -> throw new CliException(Exit.DENIED, msg.get("login.device.denied"));
            case "expired_token" -> throw new CliException(Exit.TIMED_OUT, msg.get("login.device.expired"));
            default ->
                throw new CliException(
                        Exit.ERROR,
                        msg.get(
                                "login.device.failed",
                                error,
                                Values.str(e.problem().get("error_description"))));
        };
    }
}
