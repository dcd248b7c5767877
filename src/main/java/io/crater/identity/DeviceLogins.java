package io.crater.identity;

import io.crater.platform.Actor;
import io.crater.platform.ApiException;
import io.crater.platform.AuditTrail;
import io.crater.platform.Sql;
import io.crater.policy.DeviceGrant;
import io.crater.policy.LoginThrottle;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Device sign-in (RFC 8628) in the database, so any replica answers any step: a client starts a request and gets a
 * device code and a user code, a signed-in person looks the user code up and approves or denies it, and the client's
 * polls with the device code are answered by {@link DeviceGrant#poll}; an approved request hands the client one
 * personal access token of the approver's, once. Both codes are stored as SHA-256 hashes; a person's misses at typing
 * codes and the requests an address starts are counted by the sign-in counters ({@link LoginFailures}).
 */
@ApplicationScoped
public class DeviceLogins {

    static final String CODE_MISSES = "device-code";
    static final String REQUESTS = "device-request";
    static final String DEFAULT_CLIENT = "device sign-in";
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Duration KEPT_AFTER_EXPIRY = Duration.ofHours(1);

    /** A request just started: the device code appears here and nowhere else. */
    record Started(String deviceCode, String userCode, long expiresIn, int interval) {}

    /** What a poll got: an RFC 6749 error code, or the token with its user. */
    record Polled(String error, AccessTokens.NewToken token, String username) {}

    /** A pending request as the person asked to approve it sees it (never its device code). */
    @Schema(name = "DeviceAuthorization")
    public record PendingView(
            String userCode, String clientName, String clientAddress, Instant createdAt, Instant expiresAt) {}

    /** A request found by its user code. */
    private record Open(
            long id,
            DeviceGrant.State state,
            String clientName,
            String clientAddress,
            Instant createdAt,
            Instant expiresAt) {
        static final String COLUMNS = "id, state, client_name, client_address, created_at, expires_at";

        static Open of(Object[] r) {
            return new Open(
                    Sql.longOf(r[0]),
                    DeviceGrant.State.valueOf(((String) r[1]).toUpperCase(Locale.ROOT)),
                    (String) r[2],
                    (String) r[3],
                    Sql.instant(r[4]),
                    Sql.instant(r[5]));
        }

        PendingView view(String userCode) {
            return new PendingView(DeviceGrant.display(userCode), clientName, clientAddress, createdAt, expiresAt);
        }
    }

    /** A request as a poll reads it, with the approver's name when there is one. */
    private record PollRow(long id, DeviceGrant.Request request, String clientName, Long userId, String username) {
        static final String COLUMNS = "d.id, d.state, d.expires_at, d.last_polled_at, d.interval_seconds,"
                + " d.client_name, d.user_id, u.username";

        static PollRow of(Object[] r) {
            return new PollRow(
                    Sql.longOf(r[0]),
                    new DeviceGrant.Request(
                            DeviceGrant.State.valueOf(((String) r[1]).toUpperCase(Locale.ROOT)),
                            Sql.instant(r[2]),
                            Sql.instant(r[3]),
                            ((Number) r[4]).intValue()),
                    (String) r[5],
                    r[6] == null ? null : Sql.longOf(r[6]),
                    (String) r[7]);
        }
    }

    @Inject
    LoginFailures failures;

    @Inject
    AccessTokens tokens;

    @Inject
    AuditTrail audit;

    @Inject
    AuthConfig config;

    @Inject
    Clock clock;

    /** Starts a request for a client; an address that started too many within the window waits (429). */
    Uni<Started> start(String clientName, String address) {
        Instant now = clock.instant();
        LoginThrottle perAddress = new LoginThrottle(config.maxDeviceRequestsPerAddress(), config.failureWindow());
        return Panache.withTransaction(() -> failures.read(REQUESTS, address).flatMap(counter -> {
            Optional<Duration> wait = perAddress.retryAfter(counter, now);
            if (wait.isPresent()) {
                return Uni.createFrom()
                        .failure(ApiException.tooManyRequests(
                                "TooManyAttempts",
                                "too many device sign-ins from this address; try again in " + seconds(wait.get())
                                        + " s",
                                wait.get()));
            }
            return failures.recordFailure(REQUESTS, address, perAddress, now)
                    .flatMap(x ->
                            Sql.update("DELETE FROM device_logins WHERE expires_at < ?1", now.minus(KEPT_AFTER_EXPIRY)))
                    .flatMap(x -> insert(clientName, address, now, 3));
        }));
    }

    /** Inserts a request with fresh codes; a user code still held by another request is drawn again. */
    private Uni<Started> insert(String clientName, String address, Instant now, int attempts) {
        byte[] raw = new byte[32];
        RANDOM.nextBytes(raw);
        String deviceCode = Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
        String userCode = DeviceGrant.newUserCode(RANDOM);
        Duration lifetime = config.deviceCodeLifetime();
        int interval = (int) Math.max(1, config.devicePollInterval().toSeconds());
        return Sql.rows(
                        "INSERT INTO device_logins (device_code_hash, user_code_hash, client_name, client_address,"
                                + " created_at, expires_at, interval_seconds) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"
                                + " ON CONFLICT DO NOTHING RETURNING id",
                        RefreshTokens.hash(deviceCode),
                        RefreshTokens.hash(userCode),
                        clientName,
                        address,
                        now,
                        now.plus(lifetime),
                        interval)
                .flatMap(rows -> {
                    if (!rows.isEmpty()) {
                        return Uni.createFrom()
                                .item(new Started(
                                        deviceCode, DeviceGrant.display(userCode), lifetime.toSeconds(), interval));
                    }
                    if (attempts <= 1) {
                        return Uni.createFrom()
                                .failure(ApiException.conflict("DeviceCodeTaken", "no free user code; try again"));
                    }
                    return insert(clientName, address, now, attempts - 1);
                });
    }

    /**
     * Answers a poll with a device code. The row is locked, so two replicas polled at once with an approved code
     * hand out one token: the first, and the second is told the code is spent.
     */
    Uni<Polled> poll(String deviceCode, String address) {
        Instant now = clock.instant();
        return Panache.withTransaction(() -> Sql.row(
                        "SELECT " + PollRow.COLUMNS + " FROM device_logins d LEFT JOIN users u ON u.id = d.user_id"
                                + " WHERE d.device_code_hash = ?1 FOR UPDATE OF d",
                        RefreshTokens.hash(deviceCode))
                .flatMap(found -> {
                    if (found.isEmpty()) {
                        return Uni.createFrom().item(new Polled(DeviceGrant.Answer.INVALID_GRANT.error(), null, null));
                    }
                    PollRow row = PollRow.of(found.get());
                    DeviceGrant.Decision d = DeviceGrant.poll(row.request(), now);
                    if (d.answer() != DeviceGrant.Answer.ISSUE) {
                        return Sql.update(
                                        "UPDATE device_logins SET last_polled_at = ?2, interval_seconds = ?3 WHERE id = ?1",
                                        row.id(),
                                        now,
                                        d.intervalSeconds())
                                .replaceWith(new Polled(d.answer().error(), null, null));
                    }
                    Actor approver = new Actor(row.userId(), row.username(), address, null);
                    return tokens.insert(row.userId(), row.clientName(), null, approver)
                            .call(t -> Sql.update(
                                    "UPDATE device_logins SET state = 'issued', token_id = ?2, last_polled_at = ?3"
                                            + " WHERE id = ?1",
                                    row.id(),
                                    t.id(),
                                    now))
                            .map(t -> new Polled(null, t, row.username()));
                }));
    }

    /** A pending request by its user code, for the signed-in person about to decide it; 404 otherwise. */
    public Uni<PendingView> find(String userCode, Caller caller) {
        return Panache.withSession(() -> open(userCode, caller, false))
                .flatMap(o -> o == null
                        ? miss(caller)
                        : Uni.createFrom()
                                .item(o.view(DeviceGrant.normalise(userCode).orElseThrow())));
    }

    /** Approves or denies a pending request as the signed-in person; an approval makes the token theirs. */
    public Uni<Void> decide(String userCode, Caller caller, boolean approve) {
        Instant now = clock.instant();
        return Panache.withTransaction(() -> open(userCode, caller, true).flatMap(o -> {
                    if (o == null) {
                        return Uni.createFrom().item(false);
                    }
                    return Sql.update(
                                    "UPDATE device_logins SET state = ?2, user_id = ?3, decided_at = ?4 WHERE id = ?1",
                                    o.id(),
                                    approve ? "approved" : "denied",
                                    caller.userId(),
                                    now)
                            .flatMap(x -> audit.record(
                                    caller.actor(null),
                                    approve ? "device.approve" : "device.deny",
                                    "device-login",
                                    Long.toString(o.id()),
                                    null,
                                    Map.of("client", o.clientName(), "clientAddress", o.clientAddress())))
                            .replaceWith(true);
                }))
                .flatMap(done ->
                        done ? Uni.createFrom().voidItem() : miss(caller).replaceWithVoid());
    }

    /**
     * The open request a typed code names, or null: none, not pending any more, or expired. A person who has missed
     * too often within the window waits (429) before any lookup.
     */
    private Uni<Open> open(String typed, Caller caller, boolean lock) {
        Instant now = clock.instant();
        LoginThrottle throttle = new LoginThrottle(config.maxDeviceCodeMisses(), config.failureWindow());
        return failures.read(CODE_MISSES, Long.toString(caller.userId())).flatMap(counter -> {
            Optional<Duration> wait = throttle.retryAfter(counter, now);
            if (wait.isPresent()) {
                return Uni.createFrom()
                        .failure(ApiException.tooManyRequests(
                                "TooManyAttempts",
                                "too many unknown codes; try again in " + seconds(wait.get()) + " s",
                                wait.get()));
            }
            Optional<String> code = DeviceGrant.normalise(typed);
            if (code.isEmpty()) {
                return Uni.createFrom().nullItem();
            }
            return Sql.row(
                            "SELECT " + Open.COLUMNS + " FROM device_logins WHERE user_code_hash = ?1"
                                    + (lock ? " FOR UPDATE" : ""),
                            RefreshTokens.hash(code.get()))
                    .map(r -> r.map(Open::of)
                            .filter(o -> DeviceGrant.open(o.state(), o.expiresAt(), now))
                            .orElse(null));
        });
    }

    /** Counts a miss against the person, in its own transaction, and answers 404. */
    private <T> Uni<T> miss(Caller caller) {
        LoginThrottle throttle = new LoginThrottle(config.maxDeviceCodeMisses(), config.failureWindow());
        return Panache.withTransaction(() ->
                        failures.recordFailure(CODE_MISSES, Long.toString(caller.userId()), throttle, clock.instant()))
                .flatMap(x -> Uni.createFrom()
                        .failure(ApiException.notFound(
                                "no pending device sign-in has this code; it may have expired or been decided")));
    }

    private static long seconds(Duration d) {
        return Math.max(1, (d.toMillis() + 999) / 1000);
    }
}
