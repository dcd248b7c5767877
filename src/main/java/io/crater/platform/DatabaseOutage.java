package io.crater.platform;

import io.vertx.sqlclient.ClosedConnectionException;
import io.vertx.sqlclient.DatabaseException;
import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Whether a failure means the database cannot be reached right now (it is restarting, shutting down or gone),
 * rather than a defect: such a request is answered 503 with {@code Retry-After}, and nothing it would have
 * written was committed. PostgreSQL's SQLSTATE classes 08 (connection exception) and 57P01–57P03 (shutting
 * down, crashed, starting up), a refused or closed connection and a pool that could not hand one out within its
 * timeout count; every other failure does not.
 */
public final class DatabaseOutage {

    private DatabaseOutage() {}

    public static boolean is(Throwable failure) {
        Map<Throwable, Boolean> seen = new IdentityHashMap<>();
        for (Throwable t = failure; t != null && seen.put(t, true) == null; t = t.getCause()) {
            if (t instanceof ConnectException
                    || t instanceof ClosedConnectionException
                    || t instanceof SQLTransientConnectionException) {
                return true;
            }
            if (t instanceof DatabaseException db && outageState(db.getSqlState())) {
                return true;
            }
            if (t instanceof SQLException sql && outageState(sql.getSQLState())) {
                return true;
            }
        }
        return false;
    }

    static boolean outageState(String sqlState) {
        return sqlState != null
                && (sqlState.startsWith("08")
                        || sqlState.equals("57P01")
                        || sqlState.equals("57P02")
                        || sqlState.equals("57P03"));
    }
}
