package io.crater.platform;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;

/**
 * Native SQL. Where a reactive session is open it runs on it (inside its transaction, if one is open, and so sees
 * what the transaction wrote); where none is, each statement goes straight to the connection pool. Either way it is a
 * prepared query of the Vert.x client ({@link PoolReads}), skipping Hibernate's native-query machinery (its rows were
 * read value by value, a tenth of the server's time under load), except in a session that manages entities: there it
 * is a native query, which flushes them first. Every way gives the rows the same Java types.
 * Parameters are positional ({@code ?1, ?2, ...}); {@link Instant}s are bound as {@code timestamptz}.
 */
public final class Sql {

    private Sql() {}

    /**
     * Whether this context has a transaction open: what it reads may include its own uncommitted writes (so caches
     * read the database instead, and keep nothing of it).
     */
    public static boolean inTransaction() {
        var session = PoolReads.currentSession();
        return session != null && session.currentTransaction() != null;
    }

    /** The rows, each an array of its columns (also when a single column is selected). */
    public static Uni<List<Object[]>> rows(String sql, Object... params) {
        return query(sql, params).invoke(() -> CacheInvalidations.ran(sql));
    }

    private static Uni<List<Object[]>> query(String sql, Object... params) {
        if (!PoolReads.onSession()) {
            return PoolReads.rows(sql, bound(params));
        }
        return Panache.getSession().flatMap(s -> {
            var connection = PoolReads.connectionOf(s);
            if (connection != null) {
                return PoolReads.rows(connection, sql, bound(params));
            }
            var q = s.createNativeQuery(sql, Object[].class);
            for (int i = 0; i < params.length; i++) {
                q.setParameter(i + 1, bind(params[i]));
            }
            return q.getResultList().map(Sql::arrays);
        });
    }

    /** Hibernate gives a single-column row as the bare value even when asked for arrays. */
    @SuppressWarnings("unchecked")
    private static List<Object[]> arrays(List<?> rows) {
        if (rows.isEmpty() || rows.get(0) instanceof Object[]) {
            return (List<Object[]>) rows;
        }
        return rows.stream()
                .map(r -> r instanceof Object[] a ? a : new Object[] {r})
                .toList();
    }

    /** The first column of every row, as a long (ids, counts). */
    public static Uni<List<Long>> longs(String sql, Object... params) {
        return rows(sql, params)
                .map(rows -> rows.stream().map(row -> longOf(single(row))).toList());
    }

    /** The first column of every row, as a string. */
    public static Uni<List<String>> strings(String sql, Object... params) {
        return rows(sql, params)
                .map(rows -> rows.stream().map(row -> (String) single(row)).toList());
    }

    public static Uni<Optional<Object[]>> row(String sql, Object... params) {
        return rows(sql, params).map(r -> r.isEmpty() ? Optional.empty() : Optional.of(r.get(0)));
    }

    public static Uni<Long> count(String sql, Object... params) {
        return rows(sql, params).map(r -> r.isEmpty() ? 0L : ((Number) single(r.get(0))).longValue());
    }

    public static Uni<Integer> update(String sql, Object... params) {
        Uni<Integer> run;
        if (!PoolReads.onSession()) {
            run = PoolReads.update(sql, bound(params));
        } else {
            run = Panache.getSession().flatMap(s -> {
                var connection = PoolReads.connectionOf(s);
                if (connection != null) {
                    return PoolReads.update(connection, sql, bound(params));
                }
                var q = s.createNativeQuery(sql);
                for (int i = 0; i < params.length; i++) {
                    q.setParameter(i + 1, bind(params[i]));
                }
                return q.executeUpdate();
            });
        }
        return run.invoke(() -> CacheInvalidations.ran(sql));
    }

    /** Runs an INSERT ... RETURNING id and gives the id. */
    public static Uni<Long> insertReturningId(String sql, Object... params) {
        return rows(sql, params).map(r -> ((Number) single(r.get(0))).longValue());
    }

    /**
     * Values as one comma-separated parameter, for {@code IN (SELECT unnest(string_to_array(?n, ','))::bigint)}: one
     * parameter however many values.
     */
    public static String commaList(java.util.Collection<?> values) {
        return String.join(",", values.stream().map(String::valueOf).toList());
    }

    /** Positional placeholders {@code ?1, ?2, ...} for an IN list of {@code n} values. */
    public static String placeholders(int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= n; i++) {
            sb.append(i == 1 ? "?" : ", ?").append(i);
        }
        return sb.toString();
    }

    private static Object single(Object row) {
        return row instanceof Object[] a ? a[0] : row;
    }

    private static Object[] bound(Object[] params) {
        Object[] b = new Object[params.length];
        for (int i = 0; i < params.length; i++) {
            b[i] = bind(params[i]);
        }
        return b;
    }

    private static Object bind(Object p) {
        return p instanceof Instant i ? OffsetDateTime.ofInstant(i, ZoneOffset.UTC) : p;
    }

    public static Instant instant(Object o) {
        if (o == null) {
            return null;
        }
        if (o instanceof OffsetDateTime odt) {
            return odt.toInstant();
        }
        if (o instanceof Instant i) {
            return i;
        }
        if (o instanceof LocalDateTime ldt) {
            return ldt.toInstant(ZoneOffset.UTC);
        }
        if (o instanceof java.sql.Timestamp t) {
            return t.toInstant();
        }
        throw new IllegalArgumentException("not a time: " + o.getClass());
    }

    public static long longOf(Object o) {
        return ((Number) o).longValue();
    }

    public static Integer intOrNull(Object o) {
        return o == null ? null : ((Number) o).intValue();
    }
}
