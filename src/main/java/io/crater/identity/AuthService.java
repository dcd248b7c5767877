package io.crater.identity;

import io.crater.platform.ApiException;
import io.crater.policy.LoginThrottle;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Sign-in, token refresh and sign-out. Failed attempts are counted per username and per client address in
 * their own transactions, so a refused attempt still counts.
 */
@ApplicationScoped
public class AuthService {

    /** What a successful sign-in or refresh hands out. */
    public record Session(
            TokenService.IssuedToken access, String refreshToken, Duration refreshLifetime, UserView user) {}

    /** The signed-in user as the API shows them. */
    @Schema(name = "User")
    public record UserView(long id, String username, String displayName, String role) {
        static UserView of(UserEntity u) {
            return new UserView(u.id, u.username, u.displayName, u.role);
        }
    }

    private record Attempt(UserEntity user, boolean linked, Optional<Duration> retryAfter) {}

    @Inject
    UserRepository users;

    @Inject
    LoginFailures failures;

    @Inject
    DirectoryLogin directory;

    @Inject
    RefreshTokens refreshTokens;

    @Inject
    TokenService tokens;

    @Inject
    AuthConfig config;

    @Inject
    Vertx vertx;

    @Inject
    Clock clock;

    public Uni<Session> login(String username, String password, String address) {
        Instant now = clock.instant();
        LoginThrottle perUser = new LoginThrottle(config.maxFailuresPerUsername(), config.failureWindow());
        LoginThrottle perAddress = new LoginThrottle(config.maxFailuresPerAddress(), config.failureWindow());
        String name = username.toLowerCase(java.util.Locale.ROOT);
        Uni<Attempt> attempt = Panache.withSession(() -> failures.read(LoginFailures.USERNAME, name)
                .flatMap(userCounter -> failures.read(LoginFailures.ADDRESS, address)
                        .flatMap(addressCounter -> {
                            Optional<Duration> wait = longest(
                                    perUser.retryAfter(userCounter, now), perAddress.retryAfter(addressCounter, now));
                            if (wait.isPresent()) {
                                return Uni.createFrom().item(new Attempt(null, false, wait));
                            }
                            return users.findByUsername(username)
                                    .flatMap(u -> u == null || !directory.enabled()
                                            ? Uni.createFrom().item(new Attempt(u, false, Optional.empty()))
                                            : directory.linked(u.id).map(l -> new Attempt(u, l, Optional.empty())));
                        })));
        return attempt.flatMap(a -> {
            if (a.retryAfter().isPresent()) {
                return Uni.createFrom()
                        .failure(ApiException.tooManyRequests(
                                "TooManyAttempts",
                                "too many failed sign-ins; try again in "
                                        + seconds(a.retryAfter().get()) + " s",
                                a.retryAfter().get()));
            }
            return verify(a, username, password, address).flatMap(user -> {
                if (user != null && !user.disabled) {
                    return Panache.withTransaction(() -> failures.clear(LoginFailures.USERNAME, name)
                            .flatMap(x -> startSession(user, UUID.randomUUID(), now)));
                }
                return Panache.withTransaction(() -> failures.recordFailure(LoginFailures.USERNAME, name, perUser, now)
                                .flatMap(x -> failures.recordFailure(LoginFailures.ADDRESS, address, perAddress, now)))
                        .flatMap(x -> Uni.createFrom()
                                .failure(
                                        user != null
                                                ? ApiException.forbidden(
                                                        "AccountDisabled",
                                                        "this user is disabled; ask a platform administrator")
                                                : ApiException.unauthorized(
                                                        "InvalidCredentials", "wrong username or password")));
            });
        });
    }

    /**
     * The user whose credentials these are, or null when they are wrong. A user linked to the directory signs in
     * there; a local user with their password; a name Crater does not know, or a local user's wrong password, is
     * tried against the directory when there is one (which refuses to take over a local user unless told to). A
     * directory that cannot answer fails the sign-in with 503, except for a local user's wrong password, which stays
     * a counted failure so that an outage never lifts the throttle.
     */
    private Uni<UserEntity> verify(Attempt a, String username, String password, String address) {
        UserEntity u = a.user();
        if (u != null && a.linked()) {
            return directory.signIn(username, password, address);
        }
        if (u == null && directory.enabled()) {
            return directory.signIn(username, password, address);
        }
        String hash = u == null || u.passwordHash == null ? PasswordHasher.UNKNOWN_USER_HASH : u.passwordHash;
        return vertx.executeBlocking(Uni.createFrom().item(() -> PasswordHasher.verify(password, hash)))
                .flatMap(ok -> {
                    if (ok && u != null) {
                        return Uni.createFrom().item(u);
                    }
                    if (u == null || !directory.enabled()) {
                        return Uni.createFrom().nullItem();
                    }
                    return directory
                            .signIn(username, password, address)
                            .onFailure(e -> e instanceof ApiException x && x.status() == 503)
                            .recoverWithNull();
                });
    }

    /** Exchanges a refresh token for a new access token and a new refresh token. */
    public Uni<Session> refresh(String refreshToken) {
        Instant now = clock.instant();
        if (refreshToken == null || refreshToken.isBlank()) {
            return Uni.createFrom()
                    .failure(ApiException.unauthorized("InvalidRefreshToken", "no refresh token was presented"));
        }
        return Panache.withTransaction(() -> refreshTokens
                        .use(refreshToken, now)
                        .flatMap(found -> {
                            if (found == null) {
                                return Uni.createFrom().item((Session) null);
                            }
                            if (found.reused()) {
                                return refreshTokens
                                        .revokeFamily(found.family(), now)
                                        .replaceWith((Session) null);
                            }
                            if (!found.usable()) {
                                return Uni.createFrom().item((Session) null);
                            }
                            return users.findById(found.userId())
                                    .flatMap(user -> user == null || user.disabled
                                            ? Uni.createFrom().item((Session) null)
                                            : startSession(user, found.family(), now));
                        }))
                .onItem()
                .ifNull()
                .failWith(() -> ApiException.unauthorized(
                        "InvalidRefreshToken", "the refresh token is invalid, expired or already used"));
    }

    public Uni<Void> logout(String refreshToken) {
        if (refreshToken == null || refreshToken.isBlank()) {
            return Uni.createFrom().voidItem();
        }
        return Panache.withTransaction(() -> refreshTokens.revokeByToken(refreshToken, clock.instant()))
                .replaceWithVoid();
    }

    public Uni<UserView> me(long userId) {
        return Panache.withSession(() -> users.findById(userId))
                .onItem()
                .ifNull()
                .failWith(() -> ApiException.unauthorized("Unauthenticated", "this user no longer exists"))
                .map(UserView::of);
    }

    /**
     * A new session for a user a sign-in provider vouched for: the same tokens and refresh family a password
     * sign-in gets. A disabled user is refused.
     */
    Uni<Session> sessionFor(UserEntity user) {
        if (user.disabled) {
            return Uni.createFrom()
                    .failure(ApiException.forbidden(
                            "AccountDisabled", "this user is disabled; ask a platform administrator"));
        }
        return Panache.withTransaction(() -> startSession(user, UUID.randomUUID(), clock.instant()));
    }

    private Uni<Session> startSession(UserEntity user, UUID family, Instant now) {
        Duration lifetime = config.refreshTokenLifetime();
        return refreshTokens
                .issue(user.id, family, now.plus(lifetime))
                .map(refresh -> new Session(tokens.issue(user), refresh, lifetime, UserView.of(user)));
    }

    private static Optional<Duration> longest(Optional<Duration> a, Optional<Duration> b) {
        if (a.isEmpty()) {
            return b;
        }
        if (b.isEmpty()) {
            return a;
        }
        return a.get().compareTo(b.get()) >= 0 ? a : b;
    }

    private static long seconds(Duration d) {
        return Math.max(1, (d.toMillis() + 999) / 1000);
    }
}
