package io.crater.notify;

import java.time.Instant;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** What the webhooks API answers and takes (docs/notifications.md, "Webhooks"). */
public final class WebhookViews {

    private WebhookViews() {}

    /** Whose a webhook is: one user's, or one account's (its admins manage it). Exactly one id is set. */
    public record Owner(Long userId, Long accountId) {
        public static Owner user(long id) {
            return new Owner(id, null);
        }

        public static Owner account(long id) {
            return new Owner(null, id);
        }
    }

    /**
     * A webhook as its owner sees it: never its secret, and its URL only up to the first path segment ({@code url});
     * {@code kinds} are the preference kinds it receives; {@code last} is its latest delivery's state, if any.
     */
    @Schema(name = "Webhook")
    public record Webhook(
            String id,
            String name,
            String url,
            String format,
            List<String> kinds,
            Instant createdAt,
            String lastState,
            Integer lastStatusCode,
            Instant lastAttemptAt) {}

    /** A new webhook: a name, an http(s) URL, a format and the kinds it receives (none given: all). */
    @Schema(name = "WebhookCreate")
    public record Create(String name, String url, String format, List<String> kinds) {}

    /** A webhook just made, with its signing secret: shown this once and never again. */
    @Schema(name = "WebhookCreated")
    public record Created(Webhook webhook, String secret) {}

    /** The owner's webhooks, and the formats and kinds a new one may have. */
    @Schema(name = "WebhookList")
    public record Listing(List<Webhook> items, List<String> formats, List<String> kinds) {}

    /** One attempt of a delivery: the answer's HTTP status (null when none came), how long it took, the error. */
    @Schema(name = "WebhookAttempt")
    public record Attempt(int attempt, Integer statusCode, long latencyMs, String error, Instant at) {}

    /**
     * One event for a webhook and how its delivery went: pending (due at {@code nextAttemptAt}), sending, sent or
     * failed (given up), with each attempt, newest first.
     */
    @Schema(name = "WebhookDelivery")
    public record Delivery(
            long id,
            String kind,
            String message,
            String state,
            int attempts,
            Instant createdAt,
            Instant sentAt,
            Instant nextAttemptAt,
            String lastError,
            List<Attempt> tries) {}

    /** The latest deliveries of a webhook, newest first. */
    @Schema(name = "WebhookDeliveries")
    public record Deliveries(List<Delivery> items) {}
}
