-- GPU health (docs/nodes.md, "Quarantine"): what each card reported last, the evidence against each node, and each
-- node's state as the health policy last decided it. Node names and card indexes, not foreign keys: nodes live in
-- the cluster.
CREATE TABLE gpu_health_marks (
    node    TEXT NOT NULL,
    gpu     INT NOT NULL,
    xid     BIGINT,
    ecc_dbe BIGINT,
    PRIMARY KEY (node, gpu)
);

CREATE TABLE gpu_health_evidence (
    id    BIGSERIAL PRIMARY KEY,
    node  TEXT NOT NULL,
    kind  TEXT NOT NULL CHECK (kind IN ('XID', 'ECC_DBE', 'JOB_FAILED')),
    at    TIMESTAMPTZ NOT NULL,
    gpu   INT,
    value BIGINT NOT NULL,
    job   TEXT
);
CREATE INDEX gpu_health_evidence_node_at ON gpu_health_evidence (node, at);
-- A failed job counts once per node, however often its pods are seen.
CREATE UNIQUE INDEX gpu_health_evidence_failed_job ON gpu_health_evidence (node, job) WHERE kind = 'JOB_FAILED';

CREATE TABLE gpu_health_nodes (
    node       TEXT PRIMARY KEY,
    state      TEXT NOT NULL CHECK (state IN ('HEALTHY', 'SUSPECT', 'QUARANTINED')),
    reasons    JSONB NOT NULL DEFAULT '[]',
    since      TIMESTAMPTZ NOT NULL,
    cleared_at TIMESTAMPTZ,
    cleared_by TEXT
);

-- The card fault a job's pods met (its node, the card, the code and the sentence its owner reads).
ALTER TABLE jobs ADD COLUMN gpu_fault JSONB;
