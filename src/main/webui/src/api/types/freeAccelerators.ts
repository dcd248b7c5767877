/** Wire types of the Crater REST API (v1): free accelerators and the caller's room under quota (counts only). */

/** GET /cluster/free-accelerators: one entry per catalogue model (retired ones left out), one per caller's account. */
export interface FreeAccelerators {
  models: FreeModel[];
  accounts: AccountRoom[];
}

/**
 * A model over the cluster, in cards: `total` on its nodes, `free` on the nodes that take pods, `mostOnOneNode` the
 * largest single-node job that fits now; `memoryMiB` of one card (null: the catalogue does not say); `restricted`
 * when a submission needs an approved access request. Nodes with the most free cards first.
 */
export interface FreeModel {
  model: string;
  displayName: string;
  vendor: string;
  memoryMiB: number | null;
  restricted: boolean;
  total: number;
  free: number;
  mostOnOneNode: number;
  nodes: FreeNode[];
}

/** A node of the model: its cards, the free ones (0 when it takes no pods: `schedulable` false), one card's memory. */
export interface FreeNode {
  name: string;
  total: number;
  free: number;
  memoryMiB: number | null;
  schedulable: boolean;
}

/** One of the caller's accounts (its slug) and what it may still take of each model. */
export interface AccountRoom {
  account: string;
  models: ModelRoom[];
}

/**
 * One model in an account, in cards: used, effective guaranteed and max (grants included), what is still to take
 * before jobs borrow, what the caller's member limit leaves (null: no limit) and the least of the two headrooms.
 */
export interface ModelRoom {
  model: string;
  used: number;
  guaranteed: number;
  max: number;
  withinGuarantee: number;
  memberLeft: number | null;
  mayStillUse: number;
}
