package io.crater.notify;

import io.crater.platform.ApiException;
import io.crater.platform.Json;
import io.crater.platform.Sql;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Notifications (job states, approval decisions, warnings) in the console, by e-mail and to webhooks. */
@ApplicationScoped
public class NotificationService {

    /**
     * One notification; {@code kind} is its code, {@code args} the numbers and names the console renders it with
     * (null when written without them: the console shows {@code message}); {@code mail} is its e-mail copy's
     * state: none, pending, sending, sent or failed.
     */
    public record NotificationView(
            long id,
            String kind,
            String message,
            Map<String, Object> args,
            String link,
            Instant createdAt,
            Instant readAt,
            String mail) {}

    /**
     * Every kind a notification may have, the code the console renders it by (with its arguments); listed in
     * src/main/webui/src/i18n/reasonCodes.json, checked by a test.
     */
    public static final List<String> KINDS = List.of(
            "approval.approved",
            "approval.rejected",
            "job.time-limit",
            "job.reclaimed",
            "job.idle-warning",
            "job.idle-reclaimed",
            "job.node-drained",
            "budget.threshold",
            "allotment.threshold",
            "job.admitted",
            "job.started",
            "job.succeeded",
            "job.failed",
            "job.waiting",
            "node.gpu-quarantined");

    @Inject
    Addresses addresses;

    @Inject
    MailConfig mail;

    @Inject
    NotificationPreferences preferences;

    @Inject
    WebhookService webhooks;

    /**
     * Adds a notification inside the caller's transaction, on the channels the user keeps on for its kind
     * (docs/notifications.md): in the console, and when mail is on and the user has an address, as an e-mail
     * ({@link MailOutbox} sends it after the commit).
     */
    public Uni<Void> notify(long userId, String kind, String message, String link) {
        return notify(userId, kind, message, link, null);
    }

    /**
     * The same, with the arguments the console renders the kind with (see docs/governance.md, "Notifications");
     * {@code message} stays the English text of the bell's API and the e-mail.
     */
    public Uni<Void> notify(long userId, String kind, String message, String link, Map<String, ?> args) {
        return notify(userId, null, kind, message, link, args);
    }

    /**
     * The same, about something of an account ({@code accountId}, null for none): that account's webhooks that take
     * the kind receive it too, whatever the user chose for their own channels.
     */
    public Uni<Void> notify(
            long userId, Long accountId, String kind, String message, String link, Map<String, ?> args) {
        return addresses.of(java.util.Set.of(userId)).flatMap(found -> {
            Addresses.Address to = found.get(userId);
            if (to == null) {
                return Uni.createFrom().voidItem(); // nobody to tell
            }
            return preferences.channels(userId, kind).flatMap(on -> {
                boolean inApp = on.contains(NotificationKinds.IN_APP);
                boolean mailed = mail.enabled()
                        && on.contains(NotificationKinds.EMAIL)
                        && to.email() != null
                        && !to.email().isBlank();
                Uni<Void> stored = !inApp && !mailed
                        ? Uni.createFrom().voidItem()
                        : Sql.update(
                                        "INSERT INTO notifications (user_id, kind, message, link, mail_state, mail_due_at, args, in_app)"
                                                + " VALUES (?1, ?2, ?3, ?4, ?5, now(), CAST(NULLIF(CAST(?6 AS text), '') AS jsonb), ?7)",
                                        userId,
                                        kind,
                                        message,
                                        link == null ? "" : link,
                                        mailed ? "pending" : "none",
                                        args == null || args.isEmpty() ? "" : Json.write(args),
                                        inApp)
                                .replaceWithVoid();
                return stored.flatMap(x -> webhooks.enqueue(
                        userId, accountId, on.contains(NotificationKinds.WEBHOOK), kind, message, link, args));
            });
        });
    }

    public Uni<List<NotificationView>> list(long userId) {
        return Panache.withSession(() -> Sql.rows(
                        "SELECT " + ViewRows.COLUMNS + " FROM notifications"
                                + " WHERE user_id = ?1 AND in_app"
                                + " ORDER BY id DESC LIMIT 100",
                        userId))
                .map(rows -> rows.stream().map(ViewRows::of).toList());
    }

    /** The columns of a notification as the bell shows it, and how they read (an empty link is none). */
    private static final class ViewRows {
        static final String COLUMNS = "id, kind, message, link, created_at, read_at, mail_state, CAST(args AS text)";

        static NotificationView of(Object[] r) {
            return new NotificationView(
                    Sql.longOf(r[0]),
                    (String) r[1],
                    (String) r[2],
                    args((String) r[7]),
                    r[3] == null || ((String) r[3]).isEmpty() ? null : (String) r[3],
                    Sql.instant(r[4]),
                    Sql.instant(r[5]),
                    (String) r[6]);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> args(String json) {
        return json == null ? null : (Map<String, Object>) Json.read(json);
    }

    public Uni<Void> markRead(long userId, long id) {
        return Panache.withTransaction(() -> Sql.update(
                        "UPDATE notifications SET read_at = now() WHERE id = ?1 AND user_id = ?2 AND read_at IS NULL",
                        id,
                        userId)
                .flatMap(n -> n > 0
                        ? Uni.createFrom().voidItem()
                        : Sql.count("SELECT count(*) FROM notifications WHERE id = ?1 AND user_id = ?2", id, userId)
                                .map(c -> {
                                    if (c == 0) {
                                        throw ApiException.notFound("no such notification");
                                    }
                                    return null;
                                })));
    }
}
