package io.crater.notify;

import io.crater.platform.ApiException;
import io.crater.platform.Problem;
import io.crater.platform.Sql;
import io.crater.platform.Unis;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** Which channels each user wants each kind of notification on, and how long a job may wait before they hear. */
@ApplicationScoped
public class NotificationPreferences {

    /** How long a job may wait in the queue before its owner is told, when they chose nothing. */
    public static final int DEFAULT_WAITING_MINUTES = 30;

    /** The longest waiting threshold a user may choose: a week. */
    static final int MAX_WAITING_MINUTES = 10080;

    @Inject
    MailConfig mail;

    /** One kind on one channel: on or off, and what it would be by default. */
    @Schema(name = "NotificationPreference")
    public record Preference(String kind, String channel, boolean enabled, boolean byDefault) {}

    /**
     * A user's preferences: every kind on every channel, the waiting threshold in minutes, and whether this server
     * sends e-mail at all ({@code mailEnabled} false: the e-mail column has no effect).
     */
    @Schema(name = "NotificationPreferences")
    public record Preferences(
            List<String> kinds,
            List<String> channels,
            List<Preference> preferences,
            int waitingThresholdMinutes,
            boolean mailEnabled) {}

    /** One change: a kind on a channel turned on or off. */
    @Schema(name = "NotificationPreferenceChange")
    public record Change(String kind, String channel, Boolean enabled) {}

    /** The changes of a PUT: the listed (kind, channel) pairs and, when given, the waiting threshold. */
    @Schema(name = "NotificationPreferencesUpdate")
    public record Update(List<Change> preferences, Integer waitingThresholdMinutes) {}

    /** A user's stored choice. */
    record Stored(String kind, String channel, boolean enabled) {
        static final String COLUMNS = "kind, channel, enabled";

        static Stored of(Object[] r) {
            return new Stored((String) r[0], (String) r[1], (Boolean) r[2]);
        }
    }

    /** A user's waiting threshold. */
    record Threshold(long userId, int minutes) {
        static Threshold of(Object[] r) {
            return new Threshold(Sql.longOf(r[0]), ((Number) r[1]).intValue());
        }
    }

    public Uni<Preferences> get(long userId) {
        return Panache.withSession(() -> read(userId));
    }

    private Uni<Preferences> read(long userId) {
        return Sql.rows("SELECT " + Stored.COLUMNS + " FROM notification_preferences WHERE user_id = ?1", userId)
                .flatMap(rows -> waitingMinutes(List.of(userId)).map(w -> {
                    Map<String, Boolean> chosen = new HashMap<>();
                    rows.stream().map(Stored::of).forEach(s -> chosen.put(s.kind() + "|" + s.channel(), s.enabled()));
                    List<Preference> out = new ArrayList<>();
                    for (String kind : NotificationKinds.KINDS) {
                        for (String channel : NotificationKinds.CHANNELS) {
                            boolean def = NotificationKinds.byDefault(kind, channel, mail.kinds());
                            out.add(new Preference(kind, channel, chosen.getOrDefault(kind + "|" + channel, def), def));
                        }
                    }
                    return new Preferences(
                            NotificationKinds.KINDS,
                            NotificationKinds.CHANNELS,
                            out,
                            w.getOrDefault(userId, DEFAULT_WAITING_MINUTES),
                            mail.enabled());
                }));
    }

    /** Stores the listed choices and the threshold; a wrong kind, channel or threshold changes nothing (400). */
    public Uni<Preferences> put(long userId, Update update) {
        List<Change> changes = update == null || update.preferences() == null ? List.of() : update.preferences();
        check(changes, update == null ? null : update.waitingThresholdMinutes());
        Integer minutes = update == null ? null : update.waitingThresholdMinutes();
        return Panache.withTransaction(() -> Unis.sequentially(
                        changes,
                        c -> Sql.update(
                                "INSERT INTO notification_preferences (user_id, kind, channel, enabled)"
                                        + " VALUES (?1, ?2, ?3, ?4) ON CONFLICT (user_id, kind, channel)"
                                        + " DO UPDATE SET enabled = EXCLUDED.enabled",
                                userId,
                                c.kind(),
                                c.channel(),
                                c.enabled()))
                .flatMap(x -> minutes == null
                        ? Uni.createFrom().item(0)
                        : Sql.update(
                                "INSERT INTO notification_thresholds (user_id, waiting_minutes) VALUES (?1, ?2)"
                                        + " ON CONFLICT (user_id) DO UPDATE SET waiting_minutes = EXCLUDED.waiting_minutes",
                                userId,
                                minutes))
                .flatMap(x -> read(userId)));
    }

    /** The field errors of an update, thrown as one 400 before anything is written. */
    static void check(List<Change> changes, Integer minutes) {
        List<Problem.FieldError> errors = new ArrayList<>();
        for (int i = 0; i < changes.size(); i++) {
            Change c = changes.get(i);
            String at = "preferences[" + i + "]";
            if (c == null) {
                errors.add(new Problem.FieldError(at, "a kind, a channel and enabled"));
                continue;
            }
            if (c.kind() == null || !NotificationKinds.KINDS.contains(c.kind())) {
                errors.add(
                        new Problem.FieldError(at + ".kind", "one of " + String.join(", ", NotificationKinds.KINDS)));
            }
            if (c.channel() == null || !NotificationKinds.CHANNELS.contains(c.channel())) {
                errors.add(new Problem.FieldError(
                        at + ".channel", "one of " + String.join(", ", NotificationKinds.CHANNELS)));
            }
            if (c.enabled() == null) {
                errors.add(new Problem.FieldError(at + ".enabled", "true or false"));
            }
        }
        if (minutes != null && (minutes < 1 || minutes > MAX_WAITING_MINUTES)) {
            errors.add(new Problem.FieldError(
                    "waitingThresholdMinutes", "whole minutes from 1 to " + MAX_WAITING_MINUTES + " (a week)"));
        }
        if (!errors.isEmpty()) {
            throw ApiException.badRequest(
                    "InvalidNotificationPreferences", "the notification preferences are not valid", errors);
        }
    }

    /** The channels a notification of this kind goes to for this user, in the caller's session. */
    Uni<Set<String>> channels(long userId, String kind) {
        String pref = NotificationKinds.preferenceOf(kind);
        if (pref == null) {
            return Uni.createFrom().item(Set.of(NotificationKinds.IN_APP));
        }
        return Sql.rows(
                        "SELECT " + Stored.COLUMNS + " FROM notification_preferences WHERE user_id = ?1 AND kind = ?2",
                        userId,
                        pref)
                .map(rows -> {
                    Map<String, Boolean> chosen = new HashMap<>();
                    rows.stream().map(Stored::of).forEach(s -> chosen.put(s.channel(), s.enabled()));
                    Set<String> on = new HashSet<>();
                    for (String channel : NotificationKinds.CHANNELS) {
                        boolean def = NotificationKinds.byDefault(pref, channel, mail.kinds());
                        if (chosen.getOrDefault(channel, def)) {
                            on.add(channel);
                        }
                    }
                    return on;
                });
    }

    /** The waiting thresholds (minutes) of the users who chose one, in the caller's session. */
    public Uni<Map<Long, Integer>> waitingMinutes(Collection<Long> userIds) {
        if (userIds.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return Sql.rows(
                        "SELECT user_id, waiting_minutes FROM notification_thresholds"
                                + " WHERE user_id IN (SELECT unnest(string_to_array(?1, ','))::bigint)",
                        Sql.commaList(userIds))
                .map(rows -> {
                    Map<Long, Integer> out = new HashMap<>();
                    rows.stream().map(Threshold::of).forEach(t -> out.put(t.userId(), t.minutes()));
                    return out;
                });
    }
}
