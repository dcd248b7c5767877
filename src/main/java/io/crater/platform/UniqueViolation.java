package io.crater.platform;

import io.vertx.sqlclient.DatabaseException;
import java.sql.SQLException;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Whether a failure is PostgreSQL's unique violation (SQLSTATE 23505) of one named constraint or unique index: the
 * loser of two writes that raced past a read-then-insert check, to be answered as the check would have (409 with the
 * feature's conflict code), never 500.
 */
public final class UniqueViolation {

    private UniqueViolation() {}

    public static boolean of(Throwable failure, String constraint) {
        Map<Throwable, Boolean> seen = new IdentityHashMap<>();
        for (Throwable t = failure; t != null && seen.put(t, true) == null; t = t.getCause()) {
            if (t instanceof org.hibernate.exception.ConstraintViolationException c
                    && constraint.equals(c.getConstraintName())) {
                return true;
            }
            boolean unique = t instanceof DatabaseException db && "23505".equals(db.getSqlState())
                    || t instanceof SQLException sql && "23505".equals(sql.getSQLState());
            if (unique && String.valueOf(t.getMessage()).contains("\"" + constraint + "\"")) {
                return true;
            }
        }
        return false;
    }
}
