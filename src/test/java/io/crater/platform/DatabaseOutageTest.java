package io.crater.platform;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.VertxException;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.ClosedConnectionException;
import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.CompletionException;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class DatabaseOutageTest {

    static PgException pg(String state, String message) {
        return new PgException(message, "FATAL", state, null);
    }

    static Stream<Arguments> failures() {
        return Stream.of(
                Arguments.of("connection refused", new ConnectException("Connection refused"), true),
                Arguments.of(
                        "refused, wrapped twice",
                        new CompletionException(new IllegalStateException(new ConnectException("refused"))),
                        true),
                Arguments.of("a pooled connection closed", ClosedConnectionException.INSTANCE, true),
                Arguments.of(
                        "shut down by the administrator",
                        pg("57P01", "terminating connection due to administrator command"),
                        true),
                Arguments.of("crash shutdown", pg("57P02", "crash shutdown"), true),
                Arguments.of("starting up", pg("57P03", "the database system is starting up"), true),
                Arguments.of("connection failure", pg("08006", "connection failure"), true),
                Arguments.of("JDBC could not connect", new SQLException("Connection refused", "08001"), true),
                Arguments.of("the pool timed out", new SQLTransientConnectionException("acquisition timeout"), true),
                Arguments.of("a unique violation", pg("23505", "duplicate key value"), false),
                Arguments.of("a serialization failure", pg("40001", "could not serialize access"), false),
                Arguments.of("a query canceled by timeout", pg("57014", "canceling statement"), false),
                Arguments.of("a syntax error from JDBC", new SQLException("syntax", "42601"), false),
                Arguments.of("a defect", new NullPointerException(), false),
                Arguments.of("some other Vert.x failure", new VertxException("boom"), false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("failures")
    void onlyAnUnreachableDatabaseIsAnOutage(String name, Throwable failure, boolean outage) {
        assertThat(DatabaseOutage.is(failure)).isEqualTo(outage);
    }

    @org.junit.jupiter.api.Test
    void aCauseCycleEnds() {
        IllegalStateException a = new IllegalStateException("a");
        IllegalStateException b = new IllegalStateException("b", a);
        a.initCause(b);
        assertThat(DatabaseOutage.is(a)).isFalse();
    }
}
