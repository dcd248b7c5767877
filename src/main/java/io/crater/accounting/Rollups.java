package io.crater.accounting;

import io.crater.platform.Json;
import io.crater.platform.Sql;
import io.smallrye.mutiny.Uni;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The hourly and daily rollups reports read ({@code usage_hourly}, {@code usage_daily}): how a stretch of holding is
 * cut into their rows, and the one statement that adds to them. Settlement adds what was held and what it cost, the
 * meter what was measured and used; both cut the same way and write through here.
 */
final class Rollups {

    /** A part of a stretch within one hour and one local day. */
    record Slice(Instant hour, LocalDate day, Instant from, Instant to) {}

    /** A row of either table: account, user, resource, and the hour (an Instant) or the local day (a LocalDate). */
    record Key(long account, long user, String resource, Object at) {}

    /** What a batch adds to one row. */
    static final class Figures {
        /** Milli-unit-seconds held. */
        BigInteger heldMilliS = BigInteger.ZERO;

        long costMicros;
        long measuredMs;
        long usedMs;
    }

    final Map<Key, Figures> hours = new HashMap<>();
    final Map<Key, Figures> days = new HashMap<>();

    /** [from, to) cut at every hour and every local midnight of {@code zone}, in order. */
    static List<Slice> slices(Instant from, Instant to, ZoneId zone) {
        List<Slice> out = new ArrayList<>();
        Instant p = from;
        while (p.isBefore(to)) {
            Instant hour = p.truncatedTo(ChronoUnit.HOURS);
            LocalDate day = p.atZone(zone).toLocalDate();
            Instant next = min(
                    hour.plus(1, ChronoUnit.HOURS),
                    day.plusDays(1).atStartOfDay(zone).toInstant());
            Instant q = min(to, next);
            out.add(new Slice(hour, day, p, q));
            p = q;
        }
        return out;
    }

    /** The figures of the slice's hour and its day, for the caller to add to. */
    List<Figures> of(long account, long user, String resource, Slice s) {
        return List.of(
                hours.computeIfAbsent(new Key(account, user, resource, s.hour()), k -> new Figures()),
                days.computeIfAbsent(new Key(account, user, resource, s.day()), k -> new Figures()));
    }

    /** Adds the batch to both tables, in the caller's transaction. */
    Uni<Void> write() {
        return upsert(hours, "usage_hourly", "hour", "timestamptz")
                .call(() -> upsert(days, "usage_daily", "day", "date"));
    }

    private static Uni<Void> upsert(Map<Key, Figures> rows, String table, String column, String type) {
        if (rows.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        List<Map<String, Object>> json = new ArrayList<>(rows.size());
        rows.forEach((k, v) -> json.add(Map.of(
                "account",
                k.account(),
                "usr",
                k.user(),
                "resource",
                k.resource(),
                "at",
                k.at().toString(),
                "held",
                v.heldMilliS,
                "cost",
                v.costMicros,
                "measured",
                v.measuredMs,
                "used",
                v.usedMs)));
        return Sql.update(
                        "INSERT INTO " + table + " (account_id, user_id, resource, " + column
                                + ", held_milli_s, cost_micros, measured_ms, used_ms)"
                                + " SELECT account, usr, resource, at, held, cost, measured, used"
                                + " FROM jsonb_to_recordset(CAST(CAST(?1 AS text) AS jsonb))"
                                + " AS x(account bigint, usr bigint, resource text, at " + type
                                + ", held numeric, cost bigint, measured bigint, used bigint)"
                                + " ON CONFLICT (account_id, " + column + ", user_id, resource) DO UPDATE SET"
                                + " held_milli_s = " + table + ".held_milli_s + EXCLUDED.held_milli_s,"
                                + " cost_micros = " + table + ".cost_micros + EXCLUDED.cost_micros,"
                                + " measured_ms = " + table + ".measured_ms + EXCLUDED.measured_ms,"
                                + " used_ms = " + table + ".used_ms + EXCLUDED.used_ms",
                        Json.write(json))
                .replaceWithVoid();
    }

    private static Instant min(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }
}
