package io.crater.notify;

import io.crater.notify.WebhookViews.Attempt;
import io.crater.notify.WebhookViews.Create;
import io.crater.notify.WebhookViews.Created;
import io.crater.notify.WebhookViews.Deliveries;
import io.crater.notify.WebhookViews.Delivery;
import io.crater.notify.WebhookViews.Listing;
import io.crater.notify.WebhookViews.Owner;
import io.crater.notify.WebhookViews.Webhook;
import io.crater.platform.Actor;
import io.crater.platform.ApiException;
import io.crater.platform.AuditTrail;
import io.crater.platform.Json;
import io.crater.platform.Problem;
import io.crater.platform.Sealing;
import io.crater.platform.Sql;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Webhooks of a user or an account (docs/notifications.md, "Webhooks"): stored with their URL and signing secret
 * sealed, each event written to the webhook outbox in the transaction of what caused it, and delivered by
 * {@link WebhookOutbox}. Who may manage an owner's webhooks is the caller's business (the user themself; an account's
 * admins): here an owner sees and touches only its own, and another owner's webhook is not found.
 */
@ApplicationScoped
public class WebhookService {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String ID_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789";
    static final int MAX_NAME = 80;

    @Inject
    WebhookConfig config;

    @Inject
    Sealing sealing;

    @Inject
    AuditTrail audit;

    static final String COLUMNS =
            "w.public_id, w.name, w.url_shown, w.format, w.kinds, w.created_at," + " l.state, l.status_code, l.at";

    /** The latest event's state and its latest attempt, per webhook. */
    static final String LAST = " LEFT JOIN LATERAL (SELECT e.state, d.status_code, d.at FROM webhook_events e"
            + " LEFT JOIN LATERAL (SELECT status_code, at FROM webhook_deliveries WHERE event_id = e.id"
            + "   ORDER BY id DESC LIMIT 1) d ON TRUE"
            + " WHERE e.webhook_id = w.id ORDER BY e.id DESC LIMIT 1) l ON TRUE";

    static Webhook of(Object[] r) {
        return new Webhook(
                (String) r[0],
                (String) r[1],
                (String) r[2],
                (String) r[3],
                List.of(((String) r[4]).split(",")),
                Sql.instant(r[5]),
                (String) r[6],
                Sql.intOrNull(r[7]),
                Sql.instant(r[8]));
    }

    /** The owner's condition on {@code w}, with its id as parameter 1. */
    static String ownedBy(Owner owner) {
        return owner.userId() != null ? "w.user_id = ?1" : "w.account_id = ?1";
    }

    static long ownerId(Owner owner) {
        return owner.userId() != null ? owner.userId() : owner.accountId();
    }

    public Uni<Listing> list(Owner owner) {
        return Panache.withSession(() -> Sql.rows(
                        "SELECT " + COLUMNS + " FROM webhooks w" + LAST + " WHERE " + ownedBy(owner) + " ORDER BY w.id",
                        ownerId(owner)))
                .map(rows -> new Listing(
                        rows.stream().map(WebhookService::of).toList(),
                        WebhookFormats.FORMATS,
                        NotificationKinds.KINDS));
    }

    /** Stores a webhook and answers it with its new secret; a wrong field changes nothing (400). */
    public Uni<Created> create(Owner owner, Create req, Actor actor) {
        List<String> kinds = check(req);
        String publicId = newPublicId();
        String secret = newSecret();
        String url = req.url().trim();
        String name = req.name().trim();
        return Panache.withTransaction(() -> Sql.count(
                                "SELECT count(*) FROM webhooks w WHERE " + ownedBy(owner), ownerId(owner))
                        .flatMap(n -> {
                            if (n >= config.maxPerOwner()) {
                                throw ApiException.conflict(
                                        "TooManyWebhooks", "at most " + config.maxPerOwner() + " webhooks each");
                            }
                            return Sql.update(
                                    "INSERT INTO webhooks (public_id, user_id, account_id, name, url_sealed, url_shown,"
                                            + " format, kinds, secret_sealed, created_by)"
                                            + " VALUES (?1, NULLIF(?2, 0), NULLIF(?3, 0), ?4, ?5, ?6, ?7, ?8, ?9,"
                                            + " NULLIF(?10, 0))",
                                    publicId,
                                    owner.userId() == null ? 0L : owner.userId(),
                                    owner.accountId() == null ? 0L : owner.accountId(),
                                    name,
                                    sealing.seal(urlPurpose(publicId), url),
                                    WebhookUrls.shown(url),
                                    req.format(),
                                    String.join(",", kinds),
                                    sealing.seal(secretPurpose(publicId), secret),
                                    actor.userId() == null ? 0L : actor.userId());
                        })
                        .flatMap(x -> audit.record(
                                actor,
                                "webhook.create",
                                "webhook",
                                publicId,
                                null,
                                Map.of("name", name, "url", WebhookUrls.shown(url), "format", req.format())))
                        .flatMap(x -> one(owner, publicId)))
                .map(w -> new Created(w, secret));
    }

    /** The kinds of a valid request (all when none are named); a 400 with every wrong field otherwise. */
    List<String> check(Create req) {
        List<Problem.FieldError> errors = new ArrayList<>();
        if (req == null) {
            throw ApiException.badRequest(
                    "InvalidWebhook",
                    "the webhook is not valid",
                    List.of(new Problem.FieldError("body", "a name, a url and a format")));
        }
        if (req.name() == null || req.name().isBlank() || req.name().trim().length() > MAX_NAME) {
            errors.add(new Problem.FieldError("name", "1 to " + MAX_NAME + " characters"));
        }
        String why = WebhookUrls.refusal(req.url(), config.allowLocalAddresses());
        if (why != null) {
            errors.add(new Problem.FieldError("url", why));
        }
        if (req.format() == null || !WebhookFormats.FORMATS.contains(req.format())) {
            errors.add(new Problem.FieldError("format", "one of " + String.join(", ", WebhookFormats.FORMATS)));
        }
        List<String> kinds = req.kinds() == null || req.kinds().isEmpty() ? NotificationKinds.KINDS : req.kinds();
        for (int i = 0; i < kinds.size(); i++) {
            if (!NotificationKinds.KINDS.contains(kinds.get(i))) {
                errors.add(new Problem.FieldError(
                        "kinds[" + i + "]", "one of " + String.join(", ", NotificationKinds.KINDS)));
            }
        }
        if (!errors.isEmpty()) {
            throw ApiException.badRequest("InvalidWebhook", "the webhook is not valid", errors);
        }
        return NotificationKinds.KINDS.stream().filter(kinds::contains).toList();
    }

    private Uni<Webhook> one(Owner owner, String publicId) {
        return Sql.row(
                        "SELECT " + COLUMNS + " FROM webhooks w" + LAST + " WHERE " + ownedBy(owner)
                                + " AND w.public_id = ?2",
                        ownerId(owner),
                        publicId)
                .map(r -> r.map(WebhookService::of)
                        .orElseThrow(() -> ApiException.notFound("no webhook '" + publicId + "'")));
    }

    /** The webhook's row id if the owner has it; 404 otherwise. */
    private Uni<Long> idOf(Owner owner, String publicId) {
        return Sql.longs(
                        "SELECT w.id FROM webhooks w WHERE " + ownedBy(owner) + " AND w.public_id = ?2",
                        ownerId(owner),
                        publicId)
                .map(ids -> ids.stream()
                        .findFirst()
                        .orElseThrow(() -> ApiException.notFound("no webhook '" + publicId + "'")));
    }

    public Uni<Void> delete(Owner owner, String publicId, Actor actor) {
        return Panache.withTransaction(() -> one(owner, publicId)
                .flatMap(w -> Sql.update("DELETE FROM webhooks WHERE public_id = ?1", publicId)
                        .flatMap(x -> audit.record(
                                actor,
                                "webhook.delete",
                                "webhook",
                                publicId,
                                Map.of("name", w.name(), "url", w.url(), "format", w.format()),
                                null))));
    }

    /** Sends a test event (kind {@code webhook.test}) through the outbox; answers its delivery, still pending. */
    public Uni<Delivery> test(Owner owner, String publicId) {
        return Panache.withTransaction(() -> one(owner, publicId)
                .flatMap(w -> idOf(owner, publicId)
                        .flatMap(id -> Sql.insertReturningId(
                                        "INSERT INTO webhook_events (webhook_id, kind, message, link, args, due_at)"
                                                + " VALUES (?1, ?2, ?3, '', CAST(CAST(?4 AS text) AS jsonb), now()) RETURNING id",
                                        id,
                                        NotificationKinds.TEST,
                                        "A test from Crater: the webhook " + w.name() + " works.",
                                        Json.write(Map.of("webhook", publicId, "name", w.name())))
                                .flatMap(eventId -> deliveries(Uni.createFrom().item(id), eventId)))
                        .map(list -> list.get(0))));
    }

    /** The latest 50 deliveries of the owner's webhook, each with its attempts. */
    public Uni<Deliveries> deliveries(Owner owner, String publicId) {
        return Panache.withSession(() -> deliveries(idOf(owner, publicId), null))
                .map(Deliveries::new);
    }

    private Uni<List<Delivery>> deliveries(Uni<Long> webhook, Long onlyEvent) {
        return webhook.flatMap(id -> Sql.rows(
                        "SELECT e.id, e.kind, e.message, e.state, e.attempts, e.created_at, e.sent_at,"
                                + " CASE WHEN e.state = 'pending' THEN e.due_at END, e.last_error FROM webhook_events e"
                                + " WHERE e.webhook_id = ?1 AND (?2 = 0 OR e.id = ?2) ORDER BY e.id DESC LIMIT 50",
                        id,
                        onlyEvent == null ? 0L : onlyEvent)
                .flatMap(events -> Sql.rows(
                                "SELECT event_id, attempt, status_code, latency_ms, error, at FROM webhook_deliveries"
                                        + " WHERE webhook_id = ?1 AND event_id >= ?2 ORDER BY id DESC",
                                id,
                                events.isEmpty()
                                        ? Long.MAX_VALUE
                                        : EventRow.of(events.get(events.size() - 1))
                                                .id())
                        .map(tries -> assemble(events, tries))));
    }

    /** One attempt as stored, with its event. */
    record AttemptRow(long eventId, Attempt attempt) {
        static AttemptRow of(Object[] r) {
            return new AttemptRow(
                    Sql.longOf(r[0]),
                    new Attempt(
                            ((Number) r[1]).intValue(),
                            Sql.intOrNull(r[2]),
                            Sql.longOf(r[3]),
                            (String) r[4],
                            Sql.instant(r[5])));
        }
    }

    /** One event as stored, without its attempts. */
    record EventRow(
            long id,
            String kind,
            String message,
            String state,
            int attempts,
            java.time.Instant createdAt,
            java.time.Instant sentAt,
            java.time.Instant nextAttemptAt,
            String lastError) {
        static EventRow of(Object[] r) {
            return new EventRow(
                    Sql.longOf(r[0]),
                    (String) r[1],
                    (String) r[2],
                    (String) r[3],
                    ((Number) r[4]).intValue(),
                    Sql.instant(r[5]),
                    Sql.instant(r[6]),
                    Sql.instant(r[7]),
                    (String) r[8]);
        }

        Delivery with(List<Attempt> tries) {
            return new Delivery(id, kind, message, state, attempts, createdAt, sentAt, nextAttemptAt, lastError, tries);
        }
    }

    static List<Delivery> assemble(List<Object[]> eventRows, List<Object[]> attemptRows) {
        Map<Long, List<Attempt>> byEvent = new LinkedHashMap<>();
        attemptRows.stream()
                .map(AttemptRow::of)
                .forEach(a -> byEvent.computeIfAbsent(a.eventId(), k -> new ArrayList<>())
                        .add(a.attempt()));
        return eventRows.stream()
                .map(EventRow::of)
                .map(e -> e.with(byEvent.getOrDefault(e.id(), List.of())))
                .toList();
    }

    /**
     * Writes a notification's event for every webhook that takes its kind, in the caller's transaction: the user's
     * own when their webhook channel is on for the kind, and those of the account it concerns (null: none).
     */
    Uni<Void> enqueue(
            long userId,
            Long accountId,
            boolean userChannel,
            String kind,
            String message,
            String link,
            Map<String, ?> args) {
        String pref = NotificationKinds.preferenceOf(kind);
        if (pref == null || (!userChannel && accountId == null)) {
            return Uni.createFrom().voidItem();
        }
        return Sql.update(
                        "INSERT INTO webhook_events (webhook_id, kind, message, link, args, due_at)"
                                + " SELECT w.id, ?1, ?2, ?3, CAST(NULLIF(CAST(?4 AS text), '') AS jsonb), now()"
                                + " FROM webhooks w WHERE ?5 = ANY (string_to_array(w.kinds, ','))"
                                + " AND ((?6 AND w.user_id = ?7) OR w.account_id = ?8)",
                        kind,
                        message,
                        link == null ? "" : link,
                        args == null || args.isEmpty() ? "" : Json.write(args),
                        pref,
                        userChannel,
                        userId,
                        accountId == null ? -1L : accountId)
                .replaceWithVoid();
    }

    static String urlPurpose(String publicId) {
        return "webhook:" + publicId + ":url";
    }

    static String secretPurpose(String publicId) {
        return "webhook:" + publicId + ":secret";
    }

    static String newPublicId() {
        StringBuilder sb = new StringBuilder("wh_");
        for (int i = 0; i < 12; i++) {
            sb.append(ID_CHARS.charAt(RANDOM.nextInt(ID_CHARS.length())));
        }
        return sb.toString();
    }

    /** A signing secret: {@code whsec_} and 32 random bytes in URL-safe base64. */
    static String newSecret() {
        byte[] b = new byte[32];
        RANDOM.nextBytes(b);
        return "whsec_" + Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }
}
