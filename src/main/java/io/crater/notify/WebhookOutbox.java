package io.crater.notify;

import io.crater.platform.Json;
import io.crater.platform.Sealing;
import io.crater.platform.Sql;
import io.crater.platform.Threads;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Delivers webhook events, as {@link MailOutbox} sends mail: every replica claims due events with {@code FOR UPDATE
 * SKIP LOCKED}, a claim expires after twice the delivery timeout, and delivery is at least once (a receiver that
 * answered just before a replica died gets the event again, with the same {@code X-Crater-Delivery}). An answer
 * other than 2xx, or none, is tried again after a doubling wait and given up after {@code
 * crater.webhooks.max-attempts}. Every attempt is kept in the delivery log. Redirects are not followed.
 */
@ApplicationScoped
class WebhookOutbox {

    private static final Logger LOG = Logger.getLogger(WebhookOutbox.class);
    private static final int KEEP_RESPONSE = 500;

    @Inject
    WebhookConfig config;

    @Inject
    MailConfig mail;

    @Inject
    Sealing sealing;

    @Inject
    MeterRegistry meters;

    @Inject
    Clock clock;

    private final ScheduledExecutorService worker = Threads.scheduler("crater-webhooks");
    private volatile HttpClient http;

    /** One claimed event with its webhook. */
    record Due(
            long id,
            long webhookId,
            String publicId,
            String format,
            String urlSealed,
            String secretSealed,
            WebhookFormats.Event event,
            int attempts) {
        static final String COLUMNS = "e.id, e.webhook_id, w.public_id, w.format, w.url_sealed, w.secret_sealed,"
                + " e.kind, e.message, e.link, CAST(e.args AS text), e.created_at, e.attempts";

        static Due of(Object[] r) {
            return new Due(
                    Sql.longOf(r[0]),
                    Sql.longOf(r[1]),
                    (String) r[2],
                    (String) r[3],
                    (String) r[4],
                    (String) r[5],
                    new WebhookFormats.Event(
                            Sql.longOf(r[0]),
                            (String) r[6],
                            (String) r[7],
                            (String) r[8],
                            args((String) r[9]),
                            Sql.instant(r[10])),
                    ((Number) r[11]).intValue());
        }

        /** The stored arguments; anything but an object reads as none, so one odd row cannot stop the outbox. */
        @SuppressWarnings("unchecked")
        private static Map<String, Object> args(String json) {
            return json != null && Json.read(json) instanceof Map<?, ?> m ? (Map<String, Object>) m : null;
        }

        /** The same with the event's link made absolute under the console's address (or none). */
        Due linkedUnder(String consoleUrl) {
            var e = event;
            var linked = new WebhookFormats.Event(
                    e.id(), e.kind(), e.message(), WebhookFormats.link(consoleUrl, e.link()), e.args(), e.createdAt());
            return new Due(id, webhookId, publicId, format, urlSealed, secretSealed, linked, attempts);
        }
    }

    /** What one attempt came to. */
    record Outcome(Integer statusCode, long latencyMs, String error, String response) {
        boolean delivered() {
            return statusCode != null && statusCode >= 200 && statusCode < 300;
        }
    }

    void onStart(@Observes StartupEvent event) {
        for (String outcome : List.of("sent", "retry", "failed")) {
            meters.counter("crater.webhooks", "outcome", outcome);
        }
        http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(config.timeout())
                .build();
        long every = config.pollInterval().toMillis();
        worker.scheduleWithFixedDelay(this::deliverDue, every, every, TimeUnit.MILLISECONDS);
    }

    void onStop(@Observes ShutdownEvent event) {
        worker.shutdownNow();
    }

    private void deliverDue() {
        try {
            List<Due> due;
            do {
                due = VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(this::claim));
                for (Due d : due) {
                    record(d, attempt(d));
                }
            } while (due.size() == config.batch() && !worker.isShutdown());
        } catch (Throwable e) {
            if (!worker.isShutdown()) {
                LOG.warn("webhooks: looking for due deliveries failed; the next look retries", e);
            }
        }
    }

    private Uni<List<Due>> claim() {
        long claimSeconds = Math.max(1, config.timeout().multipliedBy(2).toSeconds());
        String consoleUrl = mail.consoleUrl().orElse(null);
        return Sql.rows(
                        "UPDATE webhook_events e SET state = 'sending', attempts = e.attempts + 1,"
                                + " due_at = now() + make_interval(secs => ?2) FROM webhooks w"
                                + " WHERE w.id = e.webhook_id AND e.id IN ("
                                + "   SELECT id FROM webhook_events WHERE state IN ('pending', 'sending')"
                                + "   AND due_at <= now() ORDER BY due_at, id LIMIT ?1 FOR UPDATE SKIP LOCKED)"
                                + " RETURNING " + Due.COLUMNS,
                        config.batch(),
                        (double) claimSeconds)
                .map(rows -> rows.stream()
                        .map(Due::of)
                        .map(d -> d.linkedUnder(consoleUrl))
                        .toList());
    }

    /** One POST of the event, signed; never throws. */
    Outcome attempt(Due d) {
        long start = System.nanoTime();
        try {
            if (d.attempts() > config.maxAttempts()) {
                return new Outcome(null, 0, "given up after " + config.maxAttempts() + " attempts", "");
            }
            String url = sealing.open(WebhookService.urlPurpose(d.publicId()), d.urlSealed());
            URI uri = URI.create(url);
            String refused = WebhookUrls.resolvedRefusal(uri.getHost(), config.allowLocalAddresses());
            if (refused != null) {
                return new Outcome(null, 0, refused, "");
            }
            String secret = sealing.open(WebhookService.secretPurpose(d.publicId()), d.secretSealed());
            String body = WebhookFormats.body(d.format(), d.event());
            long timestamp = clock.instant().getEpochSecond();
            HttpRequest req = HttpRequest.newBuilder(uri)
                    .timeout(config.timeout())
                    .header("Content-Type", "application/json; charset=utf-8")
                    .header("User-Agent", "Crater-Webhook/1")
                    .header(WebhookFormats.TIMESTAMP_HEADER, Long.toString(timestamp))
                    .header(WebhookFormats.SIGNATURE_HEADER, WebhookFormats.signature(secret, timestamp, body))
                    .header(WebhookFormats.EVENT_HEADER, d.event().kind())
                    .header(WebhookFormats.DELIVERY_HEADER, Long.toString(d.id()))
                    .POST(HttpRequest.BodyPublishers.ofString(body))
                    .build();
            HttpResponse<String> res = http.send(req, HttpResponse.BodyHandlers.ofString());
            String answer = res.body() == null ? "" : res.body();
            int code = res.statusCode();
            return new Outcome(
                    code,
                    millisSince(start),
                    code >= 200 && code < 300 ? null : "the receiver answered " + code,
                    answer.length() > KEEP_RESPONSE ? answer.substring(0, KEEP_RESPONSE) : answer);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome(null, millisSince(start), "interrupted", "");
        } catch (Exception e) {
            String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            return new Outcome(null, millisSince(start), why, "");
        }
    }

    private static long millisSince(long start) {
        return (System.nanoTime() - start) / 1_000_000;
    }

    /** Keeps the attempt in the log and moves the event on: sent, due again after the retry wait, or failed. */
    private void record(Due d, Outcome o) {
        boolean sent = o.delivered();
        boolean giveUp = !sent && d.attempts() >= config.maxAttempts();
        String state = sent ? "sent" : giveUp ? "failed" : "pending";
        double retrySeconds = MailRules.retryAfter(d.attempts(), config.retryInitial(), config.retryMax())
                        .toMillis()
                / 1000.0;
        meters.counter("crater.webhooks", "outcome", sent ? "sent" : giveUp ? "failed" : "retry")
                .increment();
        if (!sent) {
            LOG.warnf(
                    "webhooks: event %d to webhook %s failed (attempt %d of %d%s): %s",
                    d.id(), d.publicId(), d.attempts(), config.maxAttempts(), giveUp ? ", given up" : "", o.error());
        }
        try {
            VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(() -> Sql.update(
                            "INSERT INTO webhook_deliveries (event_id, webhook_id, attempt, status_code, latency_ms,"
                                    + " error, response) VALUES (?1, ?2, ?3, NULLIF(?4, -1), ?5, NULLIF(?6, ''), ?7)",
                            d.id(),
                            d.webhookId(),
                            d.attempts(),
                            o.statusCode() == null ? -1 : o.statusCode(),
                            o.latencyMs(),
                            o.error() == null ? "" : o.error(),
                            o.response())
                    .flatMap(x -> Sql.update(
                            "UPDATE webhook_events SET state = ?2, last_error = NULLIF(?3, ''),"
                                    + " sent_at = CASE WHEN ?2 = 'sent' THEN now() END,"
                                    + " due_at = CASE WHEN ?2 = 'pending' THEN now() + make_interval(secs => ?4) END"
                                    + " WHERE id = ?1 AND state = 'sending'",
                            d.id(),
                            state,
                            o.error() == null ? "" : o.error(),
                            retrySeconds))));
        } catch (Throwable e) {
            LOG.warnf("webhooks: recording the outcome of event %d failed: %s", d.id(), e.getMessage());
        }
    }
}
