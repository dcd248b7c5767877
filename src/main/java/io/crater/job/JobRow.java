package io.crater.job;

import io.crater.platform.Sql;
import java.time.Instant;

/** A job as stored, with what admission and the reconciler need. */
record JobRow(
        long id,
        String publicId,
        long accountId,
        long userId,
        String name,
        String kind,
        boolean interactive,
        String state,
        String specJson,
        int priority,
        boolean stopRequested,
        Instant admittedAt) {

    static final String COLUMNS =
            "j.id, j.public_id, j.account_id, j.user_id, j.name, j.kind, j.interactive, j.state, CAST(j.spec AS text), j.priority, j.stop_requested, j.admitted_at";

    static JobRow of(Object[] r) {
        return new JobRow(
                Sql.longOf(r[0]),
                (String) r[1],
                Sql.longOf(r[2]),
                Sql.longOf(r[3]),
                (String) r[4],
                (String) r[5],
                (Boolean) r[6],
                (String) r[7],
                (String) r[8],
                ((Number) r[9]).intValue(),
                (Boolean) r[10],
                Sql.instant(r[11]));
    }

    static boolean terminal(String state) {
        return state.equals("Succeeded")
                || state.equals("Failed")
                || state.equals("Stopped")
                || state.equals("Rejected");
    }
}
