package io.crater.platform;

import io.quarkus.arc.Arc;
import io.quarkus.arc.ArcContainer;
import io.quarkus.hibernate.reactive.panache.common.runtime.SessionOperations;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.sqlclient.data.Numeric;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.hibernate.engine.spi.SessionImplementor;
import org.hibernate.reactive.mutiny.Mutiny;
import org.hibernate.reactive.mutiny.impl.MutinySessionImpl;

/**
 * {@link Sql}'s statements as prepared queries on the Vert.x client: where no reactive session is open, on the
 * connection pool, autocommitted as a session outside a transaction would have run it; where one is open and has
 * nothing to flush, on the session's own connection (inside its transaction, if one is open). Hibernate Reactive runs on the same pool; going
 * to it directly skips the native query's parsing, the parameters' binding through a JDBC-like adaptor and the rows'
 * extraction value by value.
 *
 * <p>The rows hold the Java types Hibernate gives for the same columns (numeric as {@link BigDecimal}, bytea as a
 * byte array), so row mappers read either path alike; {@code SqlPathsTest} runs both on every column type the code
 * selects.
 */
final class PoolReads {

    private static final String DEFAULT_UNIT = "<default>";

    private static volatile ArcContainer container;
    private static volatile Pool pool;

    private PoolReads() {}

    /**
     * Whether this context has a reactive session open: then its statements run on it, inside its transaction if one
     * is open. A session holds its connection from the moment it opens, so a statement beside it on the pool would
     * take a second connection per caller, and enough callers at once would wait for each other forever.
     */
    static boolean onSession() {
        return currentSession() != null;
    }

    /** The reactive session open on this context, or null. */
    static org.hibernate.reactive.mutiny.Mutiny.Session currentSession() {
        return SessionOperations.getCurrentSession(DEFAULT_UNIT);
    }

    /**
     * The open session's own connection, when a statement on it may skip Hibernate's native query: the session manages
     * no entity and has nothing queued, so there is nothing Hibernate would flush before the statement. Null
     * otherwise (then the statement is a native query, which flushes first).
     */
    static org.hibernate.reactive.pool.ReactiveConnection connectionOf(Mutiny.Session session) {
        if (!(session instanceof MutinySessionImpl mutiny)) {
            return null;
        }
        var reactive = mutiny.unwrap(org.hibernate.reactive.session.ReactiveSession.class);
        if (!(reactive instanceof SessionImplementor s)
                || s.getPersistenceContextInternal().getNumberOfManagedEntities() > 0
                || s.getActionQueue().hasAnyQueuedActions()) {
            return null;
        }
        return mutiny.getReactiveConnection();
    }

    /** A query on a session's connection, inside its transaction when one is open. */
    static Uni<List<Object[]>> rows(org.hibernate.reactive.pool.ReactiveConnection c, String sql, Object[] params) {
        return Uni.createFrom()
                .completionStage(() -> c.select(dollars(sql), params))
                .map(result -> {
                    List<Object[]> out = new ArrayList<>(result.size());
                    while (result.hasNext()) {
                        Object[] row = result.next();
                        for (int i = 0; i < row.length; i++) {
                            row[i] = value(row[i]);
                        }
                        out.add(row);
                    }
                    return out;
                });
    }

    /** An update on a session's connection, inside its transaction when one is open. */
    static Uni<Integer> update(org.hibernate.reactive.pool.ReactiveConnection c, String sql, Object[] params) {
        return Uni.createFrom().completionStage(() -> c.update(dollars(sql), params));
    }

    static Uni<List<Object[]>> rows(String sql, Object[] params) {
        return pool().preparedQuery(dollars(sql)).execute(Tuple.from(params)).map(PoolReads::arrays);
    }

    static Uni<Integer> update(String sql, Object[] params) {
        return pool().preparedQuery(dollars(sql)).execute(Tuple.from(params)).map(RowSet::rowCount);
    }

    /** {@code ?1} as PostgreSQL's {@code $1}; a {@code ?} not followed by digits (jsonb's operators) stays. */
    static String dollars(String sql) {
        int q = sql.indexOf('?');
        if (q < 0) {
            return sql;
        }
        char[] out = sql.toCharArray();
        for (int i = q; i < out.length - 1; i++) {
            if (out[i] == '?' && Character.isDigit(out[i + 1])) {
                out[i] = '$';
            }
        }
        return new String(out);
    }

    private static List<Object[]> arrays(RowSet<Row> set) {
        List<Object[]> out = new ArrayList<>(set.size());
        for (Row row : set) {
            int n = row.size();
            Object[] a = new Object[n];
            for (int i = 0; i < n; i++) {
                a[i] = value(row.getValue(i));
            }
            out.add(a);
        }
        return out;
    }

    /** A value as Hibernate gives it for the same column. */
    static Object value(Object v) {
        if (v == null
                || v instanceof String
                || v instanceof Long
                || v instanceof Integer
                || v instanceof Boolean
                || v instanceof java.time.OffsetDateTime) {
            return v;
        }
        if (v instanceof Numeric n) {
            return n.bigDecimalValue();
        }
        if (v instanceof io.vertx.core.buffer.Buffer b) {
            return b.getBytes();
        }
        if (v instanceof io.vertx.mutiny.core.buffer.Buffer b) {
            return b.getBytes();
        }
        return v;
    }

    private static Pool pool() {
        ArcContainer now = Arc.container();
        Pool p = pool;
        if (p == null || container != now) {
            p = now.instance(Pool.class).get();
            pool = p;
            container = now;
        }
        return p;
    }
}
