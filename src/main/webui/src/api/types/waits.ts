/** Wire types of the Crater REST API (v1): Why a job waits. */

import type { JobPriority, JobState, Reason } from './jobs';

/** A job ahead in the waiting line; id, name and owner are null when the viewer may not see its account's jobs. */
export interface AheadJob {
  id: string | null;
  name: string | null;
  owner: string | null;
  sameAccount: boolean;
  priority: JobPriority;
  /** Resource → quantity string, as in a job summary. */
  requests: Record<string, string>;
}

/** Where a waiting job stands: 1-based places in its account's line and the cluster's, and up to 20 jobs just before it. */
export interface WaitPosition {
  inAccount: number;
  accountWaiting: number;
  inCluster: number;
  clusterWaiting: number;
  ahead: AheadJob[];
}

/**
 * When a waiting job should start: `startBy` is an upper bound (the jobs it waits for, `waitsFor`, run to their
 * time limits; sooner if they end sooner), or `unknown` says why no time can be given.
 */
/** A job whose end a waiting job waits for; id and name are null when the viewer may not see it. */
export interface WaitsForJob {
  id: string | null;
  name: string | null;
}

export interface WaitEstimate {
  startBy: string | null;
  waitsFor: string[];
  unknown: Reason | null;
  /** The same jobs as `waitsFor`, named for those who may see them. */
  jobs?: WaitsForJob[];
}

export type SuggestionCode = 'FewerAccelerators' | 'OtherModel' | 'RequestGrant' | 'RunAsBackfill';

/**
 * What would make the job start now: the change to resubmit it with (`resources.*` fields), or for
 * `RequestGrant` the quota grant to ask for (`{resource, amount}`), with the figures behind it.
 */
export interface Suggestion {
  code: SuggestionCode;
  message: string;
  change: Record<string, string | number | boolean>;
  numbers: Record<string, number>;
}

/** Why a job waits (GET /jobs/{id}/wait); position and estimate only while it is Queued. */
export interface Wait {
  state: JobState;
  reasons: Reason[];
  position: WaitPosition | null;
  estimate: WaitEstimate | null;
  suggestions: Suggestion[];
}

/** Resubmitting a job, optionally changed; `replace` also stops the original while it still waits. */
export interface ResubmitJob {
  changes?: Record<string, string | number | boolean>;
  replace?: boolean;
}
