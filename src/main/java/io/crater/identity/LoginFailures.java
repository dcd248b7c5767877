package io.crater.identity;

import io.crater.policy.LoginThrottle;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;

/** Failed sign-in counters in the database, per username and per client address, shared by every replica. */
@ApplicationScoped
class LoginFailures {

    static final String USERNAME = "username";
    static final String ADDRESS = "address";

    Uni<LoginThrottle.Counter> read(String scope, String subject) {
        return Panache.getSession()
                .flatMap(s -> s.createNativeQuery(
                                "SELECT window_start, failures FROM login_failures WHERE scope = ?1 AND subject = ?2",
                                Object[].class)
                        .setParameter(1, scope)
                        .setParameter(2, subject)
                        .getResultList())
                .map(LoginFailures::counter);
    }

    /** Counts one more failure atomically; a window that has passed starts over. */
    Uni<LoginThrottle.Counter> recordFailure(String scope, String subject, LoginThrottle policy, Instant now) {
        String sql = """
                INSERT INTO login_failures (scope, subject, window_start, failures) VALUES (?1, ?2, ?3, 1)
                ON CONFLICT (scope, subject) DO UPDATE SET
                  failures = CASE WHEN login_failures.window_start + make_interval(secs => ?4) <= ?3 THEN 1 ELSE login_failures.failures + 1 END,
                  window_start = CASE WHEN login_failures.window_start + make_interval(secs => ?4) <= ?3 THEN ?3 ELSE login_failures.window_start END
                RETURNING window_start, failures""";
        return Panache.getSession()
                .flatMap(s -> s.createNativeQuery(sql, Object[].class)
                        .setParameter(1, scope)
                        .setParameter(2, subject)
                        .setParameter(3, OffsetDateTime.ofInstant(now, ZoneOffset.UTC))
                        .setParameter(4, (double) policy.window().toSeconds())
                        .getResultList())
                .map(LoginFailures::counter);
    }

    Uni<Integer> clear(String scope, String subject) {
        return Panache.getSession()
                .flatMap(s -> s.createNativeQuery("DELETE FROM login_failures WHERE scope = ?1 AND subject = ?2")
                        .setParameter(1, scope)
                        .setParameter(2, subject)
                        .executeUpdate());
    }

    private static LoginThrottle.Counter counter(List<Object[]> rows) {
        if (rows.isEmpty()) {
            return null;
        }
        Object start = rows.get(0)[0];
        Instant windowStart = start instanceof OffsetDateTime odt
                ? odt.toInstant()
                : start instanceof Instant i ? i : ((java.time.LocalDateTime) start).toInstant(ZoneOffset.UTC);
        return new LoginThrottle.Counter(windowStart, ((Number) rows.get(0)[1]).intValue());
    }
}
