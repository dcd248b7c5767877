package io.crater.notify;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Webhooks (docs/notifications.md, "Webhooks"): where they may point and how their deliveries are retried. */
@ConfigMapping(prefix = "crater.webhooks")
public interface WebhookConfig {

    /**
     * Whether a webhook may point at a loopback ({@code 127.0.0.0/8}, {@code ::1}), link-local ({@code 169.254.0.0/16},
     * {@code fe80::/10}) or unspecified address. Off: such a URL is refused, so a webhook cannot reach the server's
     * own ports or a cloud's metadata service; the tests turn it on for their receiver on 127.0.0.1.
     */
    @WithDefault("false")
    boolean allowLocalAddresses();

    /** How often a replica looks for deliveries that are due. */
    @WithDefault("2s")
    Duration pollInterval();

    /** How many deliveries one look claims at most. */
    @WithDefault("20")
    int batch();

    /** The wait before the second attempt of a delivery that failed; it doubles with each further failure. */
    @WithDefault("10s")
    Duration retryInitial();

    /** The longest wait between two attempts. */
    @WithDefault("30m")
    Duration retryMax();

    /** After this many failed attempts a delivery is given up ({@code failed}, with the last error). */
    @WithDefault("8")
    int maxAttempts();

    /** How long one delivery may take, connection included; a claim lasts twice as long, then it is due again. */
    @WithDefault("10s")
    Duration timeout();

    /** How many webhooks one user or one account may have. */
    @WithDefault("20")
    int maxPerOwner();
}
