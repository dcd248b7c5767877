package io.crater.platform;

import static org.assertj.core.api.Assertions.assertThat;

import io.crater.CraterTestResource;
import io.crater.identity.UserRepository;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.VertxContextSupport;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link Sql} runs a statement on the pool outside a session, on the session's own connection inside one, and as
 * Hibernate's native query in a session that manages entities: every path must give the same Java values for every
 * column type the code selects, and bind parameters alike.
 */
@QuarkusTest
@QuarkusTestResource(value = CraterTestResource.class, restrictToAnnotatedClass = false)
class SqlPathsTest {

    /** Each expression as a column: the types of the schema, results of aggregates, and nulls. */
    private static final List<String> COLUMNS = List.of(
            "CAST(7 AS bigint)",
            "CAST(7 AS integer)",
            "CAST(7 AS smallint)",
            "CAST(2.50 AS numeric)",
            "CAST(2.5 AS numeric(12,4))",
            "sum(CAST(3 AS bigint))",
            "sum(CAST(3 AS integer))",
            "count(*)",
            "avg(CAST(3 AS integer))",
            "EXTRACT(EPOCH FROM CAST('2026-01-01T00:00:00Z' AS timestamptz))",
            "CAST(1.5 AS double precision)",
            "CAST(1.5 AS real)",
            "true",
            "'text'",
            "CAST('v' AS varchar(10))",
            "CAST('c' AS char(1))",
            "CAST('ab' AS char(2))",
            "CAST('2026-03-04T05:06:07.123456Z' AS timestamptz)",
            "CAST('2026-03-04T05:06:07' AS timestamp)",
            "CAST('2026-03-04' AS date)",
            "CAST('6f1c2a7e-3d4b-4c5d-8e9f-0a1b2c3d4e5f' AS uuid)",
            "CAST('{\"a\": [1, 2]}' AS jsonb)",
            "CAST('[1, \"x\"]' AS jsonb)",
            "CAST('\"s\"' AS jsonb)",
            "CAST('{\"a\": 1}' AS json)",
            "decode('00ff', 'hex')",
            "CAST(NULL AS bigint)",
            "CAST(NULL AS text)",
            "CAST(NULL AS timestamptz)",
            "CAST(NULL AS jsonb)");

    @Inject
    UserRepository users;

    /** On a transaction's own connection: a session that manages no entity. */
    Object[] onSession(String select, Object... params) throws Throwable {
        return VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(() -> Panache.getSession()
                        .invoke(s -> assertThat(PoolReads.connectionOf(s)).isNotNull())
                        .flatMap(s -> Sql.rows(select, params))))
                .get(0);
    }

    /** Hibernate's native query: a session that manages an entity (it flushes it before the statement). */
    Object[] onNativeQuery(String select, Object... params) throws Throwable {
        return VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(() -> users.findAll()
                        .firstResult()
                        .invoke(u ->
                                assertThat(u).as("a user the session manages").isNotNull())
                        .flatMap(u -> Panache.getSession())
                        .invoke(s -> assertThat(PoolReads.connectionOf(s)).isNull())
                        .flatMap(s -> Sql.rows(select, params))))
                .get(0);
    }

    @Test
    void everyPathGivesTheSameValuesForEveryColumnType() throws Throwable {
        String select = "SELECT " + String.join(", ", COLUMNS);
        Object[] onNative = onNativeQuery(select);
        Object[] onSession = onSession(select);
        Object[] onPool =
                VertxContextSupport.subscribeAndAwait(() -> Sql.rows(select)).get(0);
        assertThat(onPool).hasSameSizeAs(COLUMNS);
        for (int i = 0; i < COLUMNS.size(); i++) {
            Object n = onNative[i];
            for (Object p : new Object[] {onSession[i], onPool[i]}) {
                assertThat(p == null ? null : p.getClass())
                        .as(COLUMNS.get(i))
                        .isEqualTo(n == null ? null : n.getClass());
                assertThat(p).as(COLUMNS.get(i)).isEqualTo(n);
            }
        }
    }

    @Test
    void everyPathBindsParametersAlike() throws Throwable {
        // ?1 + 1 is an integer: PostgreSQL infers the parameter's type, on either path.
        String select =
                "SELECT ?1 + 1, CAST(?2 AS text) || '!', ?3 < now(), CAST(CAST(?4 AS text) AS jsonb) ->> 'k', ?1 * 2,"
                        + " CAST(?5 AS bigint) IS NULL";
        Object[] params = {41L, "hi", Instant.parse("2020-01-01T00:00:00Z"), "{\"k\": 1}", null};
        Object[] onSession = onSession(select, params);
        Object[] onNative = onNativeQuery(select, params);
        Object[] onPool = VertxContextSupport.subscribeAndAwait(() -> Sql.rows(select, params))
                .get(0);
        assertThat(onPool).containsExactly(onSession);
        assertThat(onPool).containsExactly(onNative);
        assertThat(onPool).containsExactly(42, "hi!", true, "1", 82, true);
    }

    @Test
    void onlyAStatementInsideATransactionSeesItsUncommittedWrites() throws Throwable {
        VertxContextSupport.subscribeAndAwait(
                () -> Sql.update("CREATE TABLE IF NOT EXISTS sql_paths_probe (id bigint PRIMARY KEY)"));
        long[] seen = new long[2];
        VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(
                () -> Sql.update("INSERT INTO sql_paths_probe VALUES (1) ON CONFLICT DO NOTHING")
                        .flatMap(x -> Sql.count("SELECT count(*) FROM sql_paths_probe"))
                        .invoke(n -> seen[0] = n)
                        .flatMap(x -> Panache.currentTransaction())
                        .invoke(tx -> tx.markForRollback())));
        seen[1] = VertxContextSupport.subscribeAndAwait(() -> Sql.count("SELECT count(*) FROM sql_paths_probe"));
        VertxContextSupport.subscribeAndAwait(() -> Sql.update("DROP TABLE sql_paths_probe"));
        assertThat(seen).containsExactly(1L, 0L);
    }

    @Test
    void placeholdersBecomeDollarsAndJsonbOperatorsStay() {
        assertThat(PoolReads.dollars("SELECT a FROM t WHERE b = ?1 AND c ? 'k' AND d ?| ARRAY[?12]"))
                .isEqualTo("SELECT a FROM t WHERE b = $1 AND c ? 'k' AND d ?| ARRAY[$12]");
        assertThat(PoolReads.dollars("SELECT 1")).isEqualTo("SELECT 1");
    }
}
