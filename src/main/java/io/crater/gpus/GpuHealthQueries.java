package io.crater.gpus;

import io.crater.platform.Json;
import io.crater.platform.Sql;
import io.crater.policy.GpuHealth;
import io.crater.policy.Reason;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The GPU health tables: cards' last readings, the evidence against nodes, and each node's state. */
@ApplicationScoped
class GpuHealthQueries {

    /** A node's stored state. */
    record NodeState(String node, GpuHealth.State state, Instant since, Instant clearedAt, String clearedBy) {
        static final String COLUMNS = "node, state, since, cleared_at, cleared_by";

        static NodeState of(Object[] r) {
            return new NodeState(
                    (String) r[0],
                    GpuHealth.State.valueOf((String) r[1]),
                    Sql.instant(r[2]),
                    Sql.instant(r[3]),
                    (String) r[4]);
        }
    }

    /** A card's stored mark. */
    record MarkRow(String node, int gpu, GpuHealth.Mark mark) {
        static MarkRow of(Object[] r) {
            return new MarkRow(
                    (String) r[0],
                    ((Number) r[1]).intValue(),
                    new GpuHealth.Mark(r[2] == null ? null : Sql.longOf(r[2]), r[3] == null ? null : Sql.longOf(r[3])));
        }
    }

    /** A stored piece of evidence and its node. */
    record EvidenceRow(String node, GpuHealth.Evidence evidence) {
        static final String COLUMNS = "node, kind, at, gpu, value, job";

        static EvidenceRow of(Object[] r) {
            return new EvidenceRow(
                    (String) r[0],
                    new GpuHealth.Evidence(
                            GpuHealth.Kind.valueOf((String) r[1]),
                            Sql.instant(r[2]),
                            Sql.intOrNull(r[3]),
                            Sql.longOf(r[4]),
                            (String) r[5]));
        }
    }

    /** The advisory lock that serialises rounds: two replicas that both lead for a moment never read one mark twice. */
    static final long ROUND_LOCK = 0x6770_7548_6c74_6801L;

    /** Takes the round's lock for the rest of the transaction. */
    Uni<Void> lockRound() {
        return Sql.count("SELECT count(*) FROM (SELECT pg_advisory_xact_lock(?1)) AS locked", ROUND_LOCK)
                .replaceWithVoid();
    }

    /** Every card's mark by {@code node/gpu}. */
    Uni<Map<String, GpuHealth.Mark>> marks() {
        return Sql.rows("SELECT node, gpu, xid, ecc_dbe FROM gpu_health_marks").map(rows -> {
            Map<String, GpuHealth.Mark> out = new HashMap<>();
            rows.stream().map(MarkRow::of).forEach(m -> out.put(m.node() + "/" + m.gpu(), m.mark()));
            return out;
        });
    }

    Uni<Void> mark(String node, int gpu, GpuHealth.Mark m) {
        return Sql.update(
                        "INSERT INTO gpu_health_marks (node, gpu, xid, ecc_dbe) VALUES (?1, ?2, ?3, ?4)"
                                + " ON CONFLICT (node, gpu) DO UPDATE SET xid = EXCLUDED.xid, ecc_dbe = EXCLUDED.ecc_dbe",
                        node,
                        gpu,
                        m.xid(),
                        m.eccDbe())
                .replaceWithVoid();
    }

    /** Stores evidence; a failed job already counted on the node is not counted twice. True when it was new. */
    Uni<Boolean> evidence(String node, GpuHealth.Evidence e) {
        return Sql.update(
                        "INSERT INTO gpu_health_evidence (node, kind, at, gpu, value, job) VALUES (?1, ?2, ?3, ?4, ?5, ?6)"
                                + " ON CONFLICT DO NOTHING",
                        node,
                        e.kind().name(),
                        e.at(),
                        e.gpu(),
                        e.value(),
                        e.job())
                .map(n -> n > 0);
    }

    /** The evidence against each node since {@code since} (the older evidence of quarantined nodes included). */
    Uni<Map<String, List<GpuHealth.Evidence>>> evidenceSince(Instant since) {
        return Sql.rows(
                        "SELECT e.node, e.kind, e.at, e.gpu, e.value, e.job FROM gpu_health_evidence e"
                                + " LEFT JOIN gpu_health_nodes n ON n.node = e.node"
                                + " WHERE e.at >= ?1 OR n.state = 'QUARANTINED' ORDER BY e.at, e.id",
                        since)
                .map(rows -> {
                    Map<String, List<GpuHealth.Evidence>> out = new HashMap<>();
                    rows.stream()
                            .map(EvidenceRow::of)
                            .forEach(e -> out.computeIfAbsent(e.node(), k -> new ArrayList<>())
                                    .add(e.evidence()));
                    return out;
                });
    }

    /** The jobs that failed on the node between two instants. */
    Uni<List<String>> failedJobsNear(String node, Instant from, Instant to) {
        return Sql.strings(
                "SELECT DISTINCT job FROM gpu_health_evidence WHERE node = ?1 AND kind = 'JOB_FAILED'"
                        + " AND at BETWEEN ?2 AND ?3 AND job IS NOT NULL",
                node,
                from,
                to);
    }

    /** The card errors (XIDs, ECC) the node reported between two instants, oldest first. */
    Uni<List<GpuHealth.Evidence>> cardFaultsNear(String node, Instant from, Instant to) {
        return Sql.rows(
                        "SELECT node, kind, at, gpu, value, job FROM gpu_health_evidence WHERE node = ?1"
                                + " AND kind IN ('XID', 'ECC_DBE') AND at BETWEEN ?2 AND ?3 ORDER BY at, id",
                        node,
                        from,
                        to)
                .map(rows -> rows.stream().map(GpuHealthQueries::evidenceOf).toList());
    }

    /** A node's newest evidence, newest first. */
    Uni<List<GpuHealth.Evidence>> recent(String node, int limit) {
        return Sql.rows(
                        "SELECT node, kind, at, gpu, value, job FROM gpu_health_evidence WHERE node = ?1"
                                + " ORDER BY at DESC, id DESC LIMIT ?2",
                        node,
                        limit)
                .map(rows -> rows.stream().map(GpuHealthQueries::evidenceOf).toList());
    }

    private static GpuHealth.Evidence evidenceOf(Object[] r) {
        return EvidenceRow.of(r).evidence();
    }

    Uni<Map<String, NodeState>> states() {
        return Sql.rows("SELECT " + NodeState.COLUMNS + " FROM gpu_health_nodes")
                .map(rows -> {
                    Map<String, NodeState> out = new HashMap<>();
                    rows.stream().map(NodeState::of).forEach(s -> out.put(s.node(), s));
                    return out;
                });
    }

    Uni<Optional<NodeState>> state(String node) {
        return Sql.row("SELECT " + NodeState.COLUMNS + " FROM gpu_health_nodes WHERE node = ?1 FOR UPDATE", node)
                .map(r -> r.map(NodeState::of));
    }

    /** The node's stored reasons (the last decision's). */
    Uni<List<Reason>> reasons(String node) {
        return Sql.strings("SELECT CAST(reasons AS text) FROM gpu_health_nodes WHERE node = ?1", node)
                .map(r -> r.isEmpty() ? List.of() : List.of(Json.read(r.get(0), Reason[].class)));
    }

    /** The node's new state and reasons; {@code since} moves only when the state changes. */
    Uni<Void> decided(String node, GpuHealth.State state, List<Reason> reasons, Instant now) {
        return Sql.update(
                        "INSERT INTO gpu_health_nodes (node, state, reasons, since) VALUES (?1, ?2, CAST(CAST(?3 AS text) AS jsonb), ?4)"
                                + " ON CONFLICT (node) DO UPDATE SET reasons = EXCLUDED.reasons,"
                                + " since = CASE WHEN gpu_health_nodes.state = EXCLUDED.state THEN gpu_health_nodes.since"
                                + " ELSE EXCLUDED.since END, state = EXCLUDED.state",
                        node,
                        state.name(),
                        Json.write(reasons),
                        now)
                .replaceWithVoid();
    }

    /** A platform admin's clear: healthy, and evidence before now no longer counts. */
    Uni<Void> cleared(String node, String by, Instant now) {
        return Sql.update(
                        "INSERT INTO gpu_health_nodes (node, state, reasons, since, cleared_at, cleared_by)"
                                + " VALUES (?1, 'HEALTHY', '[]', ?2, ?2, ?3) ON CONFLICT (node) DO UPDATE SET"
                                + " state = 'HEALTHY', reasons = '[]', since = ?2, cleared_at = ?2, cleared_by = ?3",
                        node,
                        now,
                        by)
                .replaceWithVoid();
    }

    /** Forgets evidence older than {@code before} of nodes that are not quarantined. */
    Uni<Void> prune(Instant before) {
        return Sql.update(
                        "DELETE FROM gpu_health_evidence e WHERE e.at < ?1 AND NOT EXISTS (SELECT 1 FROM"
                                + " gpu_health_nodes n WHERE n.node = e.node AND n.state = 'QUARANTINED')",
                        before)
                .replaceWithVoid();
    }
}
