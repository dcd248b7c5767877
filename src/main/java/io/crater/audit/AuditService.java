package io.crater.audit;

import io.crater.platform.Actor;
import io.crater.platform.AuditTrail;
import io.crater.platform.Json;
import io.crater.platform.Sql;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/**
 * The audit trail. {@link #record} joins the caller's transaction, so a change and its record commit or roll
 * back together; denied attempts are written in a transaction of their own (the request they belong to
 * changed nothing).
 */
@ApplicationScoped
public class AuditService implements AuditTrail {

    /** Must run inside the transaction of the change. */
    @Override
    public Uni<Void> record(
            Actor actor, String action, String targetType, String targetId, Object before, Object after) {
        Entry entry = entry(actor, action, targetType, targetId, before, after);
        return Sql.update(entry.insert(1), entry.params().toArray()).replaceWithVoid();
    }

    /**
     * An audit row ready to be written: its statement's parameters in the order of {@link #insert}'s columns (actor id,
     * actor, account, action, target type, target id, before, after, client address).
     */
    public record Entry(List<Object> params) {

        /** The row's INSERT, its parameters numbered from {@code first}. */
        public String insert(int first) {
            int f = first;
            return "INSERT INTO audit_log (actor_id, actor, account, action, target_type, target_id, before, after,"
                    + " client_address, result) VALUES (?" + f + ", ?" + (f + 1) + ", ?" + (f + 2) + ", ?" + (f + 3)
                    + ", ?" + (f + 4) + ", ?" + (f + 5) + ", CAST(CAST(?" + (f + 6) + " AS text) AS jsonb),"
                    + " CAST(CAST(?" + (f + 7) + " AS text) AS jsonb), ?" + (f + 8) + ", 'ok')";
        }

        /**
         * The row as a data-modifying {@code WITH} item named {@code name}, its parameters numbered from
         * {@code first}: a change written as one statement carries its own record, and both commit together
         * without a transaction around them.
         */
        public String with(String name, int first) {
            return name + " AS (" + insert(first) + ")";
        }
    }

    /** The audit row of a change by {@code actor}; {@code before} and {@code after} are written as JSON. */
    public static Entry entry(
            Actor actor, String action, String targetType, String targetId, Object before, Object after) {
        return new Entry(java.util.Arrays.asList(
                actor.userId(),
                actor.username(),
                actor.account(),
                action,
                targetType,
                targetId,
                Json.write(before),
                Json.write(after),
                actor.clientAddress()));
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
