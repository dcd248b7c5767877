package io.crater.accounting;

import io.crater.platform.Json;
import io.crater.platform.Sql;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The append-only double-entry ledger. Every transaction is two entries of opposite amounts, one on an account's book
 * and one on a platform book ({@link #GRANTS} for what is issued, expired and adjusted, {@link #USAGE} for charges and
 * refunds), so all books always sum to zero. A transaction is keyed by its idempotency key: posting it again changes
 * nothing. Balances are a projection kept in the entries' transaction, and {@link #check} recomputes them.
 */
@ApplicationScoped
public class Ledger {

    /** The platform book money is issued from (budgets, top-ups) and expires back to. */
    public static final String GRANTS = "platform:grants";
    /** The platform book charges go to and refunds come from. */
    public static final String USAGE = "platform:usage";

    /** An account's book. */
    public static String book(long accountId) {
        return "account:" + accountId;
    }

    /** A book's balance in micro-units, as {@code ledger_balances} keeps it. */
    record Balance(String book, long balance) {
        static Balance of(Object[] r) {
            return new Balance((String) r[0], Sql.longOf(r[1]));
        }

        /** The account whose book it is ({@link #book(long)}'s inverse; an account's book only). */
        long accountId() {
            return Long.parseLong(book.substring("account:".length()));
        }
    }

    /**
     * One transaction: {@code amount} micro-units onto the account's book (negative for a charge or an expiry), the
     * opposite onto {@code counterBook}.
     */
    public record Posting(
            String txn,
            String kind,
            long accountId,
            Long userId,
            String jobRef,
            String counterBook,
            long amount,
            Instant windowStart,
            Instant windowEnd,
            String note,
            String actor) {}

    /** Posts the transactions not posted yet, in order, in the caller's transaction; how many were new. */
    public Uni<Integer> post(List<Posting> postings) {
        if (postings.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        Set<String> books = new TreeSet<>();
        postings.forEach(p -> {
            books.add(book(p.accountId()));
            books.add(p.counterBook());
        });
        List<String> sorted = List.copyOf(books);
        String in = Sql.placeholders(sorted.size());
        List<String> txns = postings.stream().map(Posting::txn).distinct().toList();
        return Sql.update(
                        "INSERT INTO ledger_balances (book, balance) SELECT b, 0 FROM unnest(string_to_array(?1, ',')) AS b"
                                + " ON CONFLICT (book) DO NOTHING",
                        String.join(",", sorted))
                // Locked in one order by every poster, so two never wait on each other.
                .flatMap(n -> Sql.rows(
                        "SELECT book, balance FROM ledger_balances WHERE book IN (" + in + ") ORDER BY book FOR UPDATE",
                        sorted.toArray()))
                .flatMap(rows -> Sql.strings(
                                "SELECT DISTINCT txn FROM ledger_entries WHERE txn IN (SELECT x FROM jsonb_array_elements_text(CAST(CAST(?1 AS text) AS jsonb)) AS x)",
                                Json.write(txns))
                        .flatMap(seen -> write(postings, balances(rows), posted(seen))));
    }

    private static Map<String, Long> balances(List<Object[]> rows) {
        Map<String, Long> out = new HashMap<>();
        rows.stream().map(Balance::of).forEach(b -> out.put(b.book(), b.balance()));
        return out;
    }

    private static Set<String> posted(List<String> txns) {
        return new java.util.HashSet<>(txns);
    }

    private Uni<Integer> write(List<Posting> postings, Map<String, Long> balance, Set<String> seen) {
        List<Map<String, Object>> entries = new ArrayList<>();
        Map<String, Long> changed = new LinkedHashMap<>();
        int fresh = 0;
        for (Posting p : postings) {
            if (!seen.add(p.txn())) {
                continue;
            }
            fresh++;
            entries.add(
                    entry(p, book(p.accountId()), p.amount(), add(balance, changed, book(p.accountId()), p.amount())));
            long counter = Math.negateExact(p.amount());
            entries.add(entry(p, p.counterBook(), counter, add(balance, changed, p.counterBook(), counter)));
        }
        if (entries.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        // Inserted in the order computed, so ids follow the balances.
        for (int i = 0; i < entries.size(); i++) {
            entries.get(i).put("ord", i);
        }
        List<Map<String, Object>> balances = new ArrayList<>();
        changed.forEach((b, v) -> balances.add(Map.of("book", b, "balance", v)));
        int posted = fresh;
        return Sql.update(
                        "INSERT INTO ledger_entries (txn, book, kind, amount_micros, balance_after, account_id, user_id,"
                                + " job_ref, window_start, window_end, note, actor)"
                                + " SELECT txn, book, kind, amount, after, account, usr, job, ws, we, note, actor"
                                + " FROM jsonb_to_recordset(CAST(CAST(?1 AS text) AS jsonb)) AS x(txn text, book text, kind text,"
                                + " amount bigint, after bigint, account bigint, usr bigint, job text, ws timestamptz,"
                                + " we timestamptz, note text, actor text, ord int) ORDER BY ord",
                        Json.write(entries))
                .flatMap(n -> Sql.update(
                        "UPDATE ledger_balances b SET balance = x.balance, updated_at = now()"
                                + " FROM jsonb_to_recordset(CAST(CAST(?1 AS text) AS jsonb)) AS x(book text, balance bigint)"
                                + " WHERE b.book = x.book",
                        Json.write(balances)))
                .replaceWith(posted);
    }

    private static long add(Map<String, Long> balance, Map<String, Long> changed, String book, long amount) {
        long after = Math.addExact(balance.getOrDefault(book, 0L), amount);
        balance.put(book, after);
        changed.put(book, after);
        return after;
    }

    private static Map<String, Object> entry(Posting p, String book, long amount, long after) {
        Map<String, Object> e = new HashMap<>();
        e.put("txn", p.txn());
        e.put("book", book);
        e.put("kind", p.kind());
        e.put("amount", amount);
        e.put("after", after);
        e.put("account", p.accountId());
        e.put("usr", p.userId());
        e.put("job", p.jobRef());
        e.put("ws", p.windowStart() == null ? null : p.windowStart().toString());
        e.put("we", p.windowEnd() == null ? null : p.windowEnd().toString());
        e.put("note", p.note() == null ? "" : p.note());
        e.put("actor", p.actor());
        return e;
    }

    /** An account's balance in micro-units (0 before its first entry). */
    public Uni<Long> balance(long accountId) {
        return Sql.rows("SELECT balance FROM ledger_balances WHERE book = ?1", book(accountId))
                .map(r -> r.isEmpty() ? 0L : Sql.longOf(r.get(0)[0]));
    }

    /** The balances of many accounts (missing: 0). */
    public Uni<Map<Long, Long>> balances(java.util.Collection<Long> accountIds) {
        if (accountIds.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        List<String> books = accountIds.stream().map(Ledger::book).toList();
        return Sql.rows(
                        "SELECT book, balance FROM ledger_balances WHERE book IN (SELECT unnest(string_to_array(?1, ',')))",
                        String.join(",", books))
                .map(rows -> {
                    Map<Long, Long> out = new HashMap<>();
                    accountIds.forEach(id -> out.put(id, 0L));
                    rows.stream().map(Balance::of).forEach(b -> out.put(b.accountId(), b.balance()));
                    return out;
                });
    }

    @jakarta.inject.Inject
    io.crater.identity.UserService users;

    /** An entry of an account's book; {@code userId} null when no member's job caused it. */
    private record EntryRow(
            long id,
            String kind,
            long amount,
            long balanceAfter,
            String jobRef,
            Long userId,
            Instant windowStart,
            Instant windowEnd,
            String note,
            String actor,
            Instant createdAt) {
        static final String COLUMNS = "id, kind, amount_micros, balance_after, job_ref, user_id, window_start,"
                + " window_end, note, actor, created_at";

        static EntryRow of(Object[] r) {
            return new EntryRow(
                    Sql.longOf(r[0]),
                    (String) r[1],
                    Sql.longOf(r[2]),
                    Sql.longOf(r[3]),
                    (String) r[4],
                    r[5] == null ? null : Sql.longOf(r[5]),
                    Sql.instant(r[6]),
                    Sql.instant(r[7]),
                    (String) r[8],
                    (String) r[9],
                    Sql.instant(r[10]));
        }

        /** The entry as the API shows it, its member by {@code usernames}. */
        AccountingViews.Entry view(Map<Long, String> usernames) {
            return new AccountingViews.Entry(
                    id,
                    kind,
                    io.crater.policy.Money.format(amount),
                    amount,
                    io.crater.policy.Money.format(balanceAfter),
                    balanceAfter,
                    jobRef,
                    userId == null ? null : usernames.get(userId),
                    windowStart,
                    windowEnd,
                    note,
                    actor,
                    createdAt);
        }
    }

    /**
     * The newest entries of an account's book, before entry {@code beforeId} (0: from the newest), only those of
     * {@code userId} when given, in the caller's session.
     */
    public Uni<List<AccountingViews.Entry>> entries(long accountId, Long userId, long beforeId, int limit) {
        return Sql.rows(
                        "SELECT " + EntryRow.COLUMNS + " FROM ledger_entries WHERE book = ?1 AND (?2 = 0 OR id < ?2)"
                                + " AND (?3 = 0 OR user_id = ?3) ORDER BY id DESC LIMIT ?4",
                        book(accountId),
                        beforeId,
                        userId == null ? 0L : userId,
                        limit)
                .map(rows -> rows.stream().map(EntryRow::of).toList())
                .flatMap(rows -> {
                    Set<Long> ids = new java.util.HashSet<>();
                    rows.stream().filter(e -> e.userId() != null).forEach(e -> ids.add(e.userId()));
                    return users.usernames(ids)
                            .map(names -> rows.stream().map(e -> e.view(names)).toList());
                });
    }

    /** The outcome of a consistency check. */
    public record Check(long books, long entries, long sum, List<String> mismatched) {
        public boolean consistent() {
            return sum == 0 && mismatched.isEmpty();
        }
    }

    /**
     * A book's stored balance beside what its entries say: their sum, how many there are and the balance the newest
     * one left (0 for a book without entries).
     */
    private record BookCheck(String book, long balance, long total, long entries, long lastAfter) {
        static BookCheck of(Object[] r) {
            return new BookCheck((String) r[0], Sql.longOf(r[1]), Sql.longOf(r[2]), Sql.longOf(r[3]), Sql.longOf(r[4]));
        }
    }

    /** Recomputes every balance from the entries: each must equal its projection, and all books sum to zero. */
    public Uni<Check> check() {
        return Sql.rows("SELECT b.book, b.balance, COALESCE(e.total, 0), COALESCE(e.n, 0),"
                        + " COALESCE(e.last_after, 0) FROM ledger_balances b LEFT JOIN (SELECT book, sum(amount_micros)"
                        + " AS total, count(*) AS n, (array_agg(balance_after ORDER BY id DESC))[1] AS last_after"
                        + " FROM ledger_entries GROUP BY book) e ON e.book = b.book ORDER BY b.book")
                .map(rows -> {
                    long entries = 0;
                    long sum = 0;
                    List<String> bad = new ArrayList<>();
                    for (BookCheck b : rows.stream().map(BookCheck::of).toList()) {
                        entries += b.entries();
                        sum += b.balance();
                        if (b.balance() != b.total() || b.balance() != b.lastAfter()) {
                            bad.add(b.book() + ": balance " + b.balance() + ", entries sum to " + b.total());
                        }
                    }
                    return new Check(rows.size(), entries, sum, bad);
                });
    }
}
