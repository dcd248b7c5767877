/** Wire types of the Crater REST API (v1): the sign-in directory (LDAP) and its sync (platform admin). */

export interface DirectorySyncCounts {
  /** Linked users looked up in the directory. */
  usersChecked: number;
  /** Users who signed in for the first time (created or linked) since the previous sync. */
  usersLinked: number;
  /** Users disabled because the directory no longer has them. */
  usersDisabled: number;
  membershipsAdded: number;
  membershipsRemoved: number;
  /** Memberships whose role the directory changed. */
  membershipsChanged: number;
}

export type DirectorySyncOutcome = 'ok' | 'partial' | 'failed';

export interface DirectorySyncResult {
  provider: string;
  trigger: 'schedule' | 'admin';
  /** failed: nothing was changed (e.g. the directory could not be reached). */
  outcome: DirectorySyncOutcome;
  startedAt: string;
  finishedAt: string;
  counts: DirectorySyncCounts;
  errors: string[];
}

export interface DirectoryStatus {
  enabled: boolean;
  /** The mark on linked users and on memberships the directory grants, e.g. `ldap:corp`. */
  provider: string;
  url: string | null;
  mode: 'search' | 'direct';
  startTls: boolean;
  /** Seconds between periodic syncs on the leader; 0: off. */
  syncIntervalSeconds: number;
  groupMappings: number;
  lastSync: DirectorySyncResult | null;
}
