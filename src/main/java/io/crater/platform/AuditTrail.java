package io.crater.platform;

import io.smallrye.mutiny.Uni;

/**
 * Where changes and refused calls are recorded. The audit feature implements it; features below audit (identity,
 * the error mappers) record through it, so nothing climbs up to the audit package.
 */
public interface AuditTrail {

    /** Records a change in the caller's transaction. */
    Uni<Void> record(Actor actor, String action, String targetType, String targetId, Object before, Object after);

    /** Records a refused (403) call in a transaction of its own. */
    Uni<Void> denied(String actor, String method, String path, String code, String clientAddress);
}
