package io.crater.interactive;

import io.crater.platform.Hashes;
import io.crater.platform.Sql;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;

/**
 * Tickets and sessions of the app origins. A ticket is minted on the API origin for one job and one user, lives a
 * minute and is good once; the app origin exchanges it for a session whose cookie is valid on that job's origin
 * only. Both are random strings kept as hashes: never a JWT the API would accept, and an API token is never
 * accepted here.
 */
@ApplicationScoped
public class AppSessions {

    private static final SecureRandom RANDOM = new SecureRandom();

    /** A ticket used once: whose it was, whether as an admin, and the path it opens. */
    record Used(long userId, boolean asAdmin, String path) {
        static Used of(Object[] r) {
            return new Used(Sql.longOf(r[0]), (Boolean) r[1], (String) r[2]);
        }
    }

    /** A session: whose, for which job, opened as admin or not. */
    public record Session(String job, long userId, boolean asAdmin) {}

    /** A ticket exchanged: the session's token and where to send the browser. */
    public record Entered(String token, String path, Instant expires) {}

    @Inject
    java.time.Clock clock;

    @Inject
    AppConfig config;

    static String token() {
        byte[] b = new byte[32];
        RANDOM.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    /** A new ticket for {@code job} (call inside a transaction). */
    public Uni<String> mint(String job, long userId, boolean asAdmin, String path) {
        String ticket = token();
        return Sql.update(
                        "INSERT INTO app_tickets (token_hash, job_public_id, user_id, as_admin, path, expires_at)"
                                + " VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                        Hashes.sha256Hex(ticket),
                        job,
                        userId,
                        asAdmin,
                        path,
                        clock.instant().plus(config.ticketTtl()))
                .replaceWith(ticket);
    }

    /** Exchanges a ticket for a session on {@code job}'s origin; null when it is unknown, used, expired or for another job. */
    public Uni<Entered> enter(String ticket, String job) {
        String token = token();
        Instant expires = clock.instant().plus(config.sessionTtl());
        return Panache.withTransaction(() -> Sql.rows(
                        "UPDATE app_tickets SET used_at = now() WHERE token_hash = ?1 AND job_public_id = ?2"
                                + " AND used_at IS NULL AND expires_at > now() RETURNING user_id, as_admin, path",
                        Hashes.sha256Hex(ticket),
                        job)
                .flatMap(rows -> {
                    if (rows.isEmpty()) {
                        return Uni.createFrom().nullItem();
                    }
                    Used r = Used.of(rows.get(0));
                    return Sql.update(
                                    "INSERT INTO app_sessions (token_hash, job_public_id, user_id, as_admin, expires_at)"
                                            + " VALUES (?1, ?2, ?3, ?4, ?5)",
                                    Hashes.sha256Hex(token),
                                    job,
                                    r.userId(),
                                    r.asAdmin(),
                                    expires)
                            .replaceWith(new Entered(token, r.path(), expires));
                }));
    }

    /** The session a cookie stands for on {@code job}'s origin, or null. */
    public Uni<Session> find(String token, String job) {
        return Panache.withSession(() -> Sql.row(
                        "SELECT user_id, as_admin FROM app_sessions WHERE token_hash = ?1 AND job_public_id = ?2"
                                + " AND expires_at > now()",
                        Hashes.sha256Hex(token),
                        job)
                .map(r -> r.map(x -> new Session(job, Sql.longOf(x[0]), (Boolean) x[1]))
                        .orElse(null)));
    }
}
