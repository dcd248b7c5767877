package io.crater.identity;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/** Sign-in and token settings. */
@ConfigMapping(prefix = "crater.auth")
public interface AuthConfig {

    /** Lifetime of an access token. */
    @WithDefault("15m")
    Duration accessTokenLifetime();

    /** Lifetime of a refresh token; each use replaces it with a new one. */
    @WithDefault("14d")
    Duration refreshTokenLifetime();

    /** Failed sign-ins allowed per username within {@link #failureWindow()}. */
    @WithDefault("5")
    int maxFailuresPerUsername();

    /** Failed sign-ins allowed per client address within {@link #failureWindow()}. */
    @WithDefault("20")
    int maxFailuresPerAddress();

    /** The window failed sign-ins are counted in; once over the limit, attempts wait until it ends. */
    @WithDefault("15m")
    Duration failureWindow();

    /** How long a device sign-in's codes stay usable (RFC 8628 {@code expires_in}). */
    @WithDefault("10m")
    Duration deviceCodeLifetime();

    /** How long a device sign-in's client waits between polls, to begin with (RFC 8628 {@code interval}). */
    @WithDefault("5s")
    Duration devicePollInterval();

    /** User codes a signed-in person may get wrong within {@link #failureWindow()} before lookups wait. */
    @WithDefault("10")
    int maxDeviceCodeMisses();

    /** Device sign-ins one client address may start within {@link #failureWindow()}. */
    @WithDefault("30")
    int maxDeviceRequestsPerAddress();

    /** Mark cookies Secure; by default they are when the request came over HTTPS. */
    Optional<Boolean> secureCookies();

    /** Username of the platform administrator created on first start. */
    @WithDefault("admin")
    String initialAdminUsername();
}
