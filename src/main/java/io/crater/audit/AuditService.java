package io.crater.audit;

import io.crater.platform.Actor;
import io.crater.platform.AuditTrail;
import io.crater.platform.Json;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The audit trail. {@link #record} joins the caller's transaction, so a change and its record commit or roll
 * back together; denied attempts are written in a transaction of their own (the request they belong to
 * changed nothing).
 */
@ApplicationScoped
public class AuditService implements AuditTrail {

    /** Who did something: user id (null for Crater itself), name, client address and current account. */
    /** Must run inside the transaction of the change. */
    @Override
    public Uni<Void> record(
            Actor actor, String action, String targetType, String targetId, Object before, Object after) {
        return Panache.getSession()
                .flatMap(s -> s.createNativeQuery("""
                                INSERT INTO audit_log (actor_id, actor, account, action, target_type, target_id, before, after, result, client_address)
                                VALUES (?1, ?2, ?3, ?4, ?5, ?6, CAST(CAST(?7 AS text) AS jsonb), CAST(CAST(?8 AS text) AS jsonb), 'ok', ?9)""")
                        .setParameter(1, actor.userId())
                        .setParameter(2, actor.username())
                        .setParameter(3, actor.account())
                        .setParameter(4, action)
                        .setParameter(5, targetType)
                        .setParameter(6, targetId)
                        .setParameter(7, Json.write(before))
                        .setParameter(8, Json.write(after))
                        .setParameter(9, actor.clientAddress())
                        .executeUpdate())
                .replaceWithVoid();
    }

    /** Records a refused (403) call in its own transaction. */
    @Override
    public Uni<Void> denied(String actor, String method, String path, String code, String clientAddress) {
        return Panache.withTransaction(() -> Panache.getSession()
                        .flatMap(s -> s.createNativeQuery(
                                        "INSERT INTO denied_attempts (actor, method, path, code, client_address) VALUES (?1, ?2, ?3, ?4, ?5)")
                                .setParameter(1, actor)
                                .setParameter(2, method)
                                .setParameter(3, path)
                                .setParameter(4, code)
                                .setParameter(5, clientAddress)
                                .executeUpdate()))
                .replaceWithVoid();
    }
}
