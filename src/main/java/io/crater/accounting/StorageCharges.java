package io.crater.accounting;

import io.crater.files.SpaceHoldings;
import io.crater.platform.Sql;
import io.crater.policy.PriceBook;
import io.crater.policy.Settlement;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Charges what file spaces hold (docs/accounting.md, "Storage"). Each space is measured; its payer is charged for the
 * time since it was last charged at the price of {@code storage} per GiB-hour, for the mean of the bytes measured then
 * and now, once that time reaches {@code crater.accounting.storage-every}. A charge is a ledger transaction keyed by
 * the space and the window's start, so posting it twice posts it once; the charged windows and the last measurement
 * are kept in {@code storage_charges}, all in one transaction under an advisory lock, so replicas never charge the
 * same window twice. A space seen for the first time is charged from then on; one whose folder is gone (or whose
 * account was archived) is charged its last window, once due, for half its last bytes and forgotten.
 */
@ApplicationScoped
class StorageCharges {

    private static final long LOCK = 0x5354_4f52_4147_45L;

    @Inject
    SpaceHoldings holdings;

    @Inject
    PriceService prices;

    @Inject
    Ledger ledger;

    @Inject
    AccountingConfig config;

    @Inject
    Clock clock;

    /** When this replica last measured the spaces; they are measured again once a window may be due. */
    private volatile Instant measured = Instant.EPOCH;

    /** What a run did: spaces seen, charges posted, micro-units charged. */
    record Run(int spaces, int charges, long chargedMicros) {}

    private record Row(String space, long accountId, Long userId, long bytes, Instant chargedUntil) {
        static Row of(Object[] r) {
            return new Row(
                    (String) r[0],
                    Sql.longOf(r[1]),
                    r[2] == null ? null : Sql.longOf(r[2]),
                    Sql.longOf(r[3]),
                    Sql.instant(r[4]));
        }
    }

    /** Blocking: measures and charges when a window may be due on this replica (settlement's thread calls it). */
    Run chargeIfDue() throws Throwable {
        Instant now = clock.instant();
        if (now.isBefore(measured.plus(config.storageEvery()))) {
            return new Run(0, 0, 0);
        }
        measured = now;
        return charge();
    }

    /** Blocking: measures every space, then charges each window that is due. */
    Run charge() throws Throwable {
        List<SpaceHoldings.Held> held = holdings.measure();
        return VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(() -> Sql.count(
                        "SELECT count(*) FROM (SELECT pg_advisory_xact_lock(?1)) AS locked", LOCK)
                .flatMap(x -> Sql.rows("SELECT space, account_id, user_id, bytes, charged_until FROM storage_charges"))
                .flatMap(rows -> prices.book().flatMap(book -> apply(held, rows, book, clock.instant())))));
    }

    private Uni<Run> apply(List<SpaceHoldings.Held> held, List<Object[]> rows, PriceBook book, Instant now) {
        Map<String, Row> known = new HashMap<>();
        rows.stream().map(Row::of).forEach(r -> known.put(r.space(), r));
        List<Ledger.Posting> postings = new ArrayList<>();
        List<Map<String, Object>> keep = new ArrayList<>();
        long due = config.storageEvery().toMillis();
        for (SpaceHoldings.Held h : held) {
            Row last = known.remove(h.space());
            if (last == null) {
                keep.add(row(h.space(), h.accountId(), h.userId(), h.bytes(), now));
            } else if (now.toEpochMilli() - last.chargedUntil().toEpochMilli() >= due) {
                posting(last, (last.bytes() + h.bytes()) / 2, now, book).ifPresent(postings::add);
                keep.add(row(h.space(), h.accountId(), h.userId(), h.bytes(), now));
            }
        }
        List<String> gone = new ArrayList<>();
        for (Row r : known.values()) {
            if (now.toEpochMilli() - r.chargedUntil().toEpochMilli() >= due) {
                posting(r, r.bytes() / 2, now, book).ifPresent(postings::add);
                gone.add(r.space());
            }
        }
        long charged = postings.stream().mapToLong(p -> -p.amount()).sum();
        return ledger.post(postings)
                .call(n -> keep.isEmpty()
                        ? Uni.createFrom().item(0)
                        : Sql.update(
                                "INSERT INTO storage_charges (space, account_id, user_id, bytes, charged_until)"
                                        + " SELECT space, account, usr, bytes, until"
                                        + " FROM jsonb_to_recordset(CAST(CAST(?1 AS text) AS jsonb))"
                                        + " AS x(space text, account bigint, usr bigint, bytes bigint, until timestamptz)"
                                        + " ON CONFLICT (space) DO UPDATE SET account_id = EXCLUDED.account_id,"
                                        + " user_id = EXCLUDED.user_id, bytes = EXCLUDED.bytes,"
                                        + " charged_until = EXCLUDED.charged_until",
                                io.crater.platform.Json.write(keep)))
                .call(n -> gone.isEmpty()
                        ? Uni.createFrom().item(0)
                        : Sql.update(
                                "DELETE FROM storage_charges WHERE space IN (SELECT x FROM"
                                        + " jsonb_array_elements_text(CAST(CAST(?1 AS text) AS jsonb)) AS x)",
                                io.crater.platform.Json.write(gone)))
                .map(n -> new Run(held.size(), postings.size(), charged));
    }

    private static Map<String, Object> row(String space, long account, Long user, long bytes, Instant until) {
        Map<String, Object> m = new HashMap<>();
        m.put("space", space);
        m.put("account", account);
        m.put("usr", user);
        m.put("bytes", bytes);
        m.put("until", until.toString());
        return m;
    }

    /** The charge of a space's window {@code [last charged, now)} for {@code bytes}; none when it costs nothing. */
    private static java.util.Optional<Ledger.Posting> posting(Row r, long bytes, Instant now, PriceBook book) {
        long micros = Settlement.cumulative(
                new Settlement.Holding(Settlement.STORAGE, Math.multiplyExact(bytes, 1000L)),
                r.chargedUntil(),
                now,
                book,
                1000);
        if (micros == 0) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(new Ledger.Posting(
                "storage:" + r.space() + ":" + r.chargedUntil().toEpochMilli(),
                "charge",
                r.accountId(),
                r.userId(),
                null,
                Ledger.USAGE,
                -micros,
                r.chargedUntil(),
                now,
                String.format(
                        Locale.ROOT,
                        "storage of %s: %.3f GiB for %.2f h",
                        r.space(),
                        bytes / (double) (1L << 30),
                        (now.toEpochMilli() - r.chargedUntil().toEpochMilli()) / 3_600_000.0),
                "crater"));
    }
}
