/** Wire types of the Crater REST API (v1): Accounts. */

export type AccountKind = 'personal' | 'team';
export type AccountRole = 'admin' | 'member';
export type FileAccess = 'rw' | 'ro';

export interface AccountSummary {
  slug: string;
  name: string;
  kind: AccountKind;
  gid: number;
  expiresAt: string | null;
  /** When a platform admin archived it; null while active. */
  archivedAt: string | null;
  members: number;
}

export interface QuotaLine {
  resource: string;
  displayName: string;
  guaranteed: string;
  max: string;
  used: string;
  granted: string;
  borrowed: string;
  guaranteedMilli: number;
  maxMilli: number;
  usedMilli: number;
  grantedMilli: number;
  borrowedMilli: number;
}

export interface Account {
  slug: string;
  name: string;
  kind: AccountKind;
  gid: number;
  expiresAt: string | null;
  /** When a platform admin archived it; null while active. */
  archivedAt: string | null;
  myRole: AccountRole | null;
  quota: QuotaLine[];
}

/** What archiving did: the account as it is now and how many unfinished jobs were stopped. */
export interface AccountArchived {
  account: Account;
  jobsStopped: number;
}

export interface AccountCreate {
  slug: string;
  name: string;
  expiresAt?: string;
  /** Username of the account's first admin. */
  admin?: string;
}

export interface AccountUpdate {
  name?: string;
  expiresAt?: string;
  /** Removes the expiry (expiresAt is then ignored). */
  clearExpiry?: boolean;
}

export interface QuotaItem {
  resource: string;
  guaranteed: string;
  max: string;
}

/** Per-resource amounts (quantity strings) and job counts; null or absent = no limit. */
export interface Limits {
  resources: Record<string, string>;
  maxRunningJobs: number | null;
  maxInteractiveSessions: number | null;
}

export interface Member {
  username: string;
  displayName: string;
  role: AccountRole;
  fileAccess: FileAccess;
  limits: Limits;
  effectiveLimits: Limits;
  /** Who granted the membership: `manual`, or `ldap:<name>` when a directory group mapping did. */
  grantedBy: string;
}

export interface MemberUpdate {
  role: AccountRole;
  fileAccess: FileAccess;
}

/** The four job time limits: "interactive" covers Jupyter and VS Code jobs, "batch" custom and PyTorch jobs. */
export type TimeLimitField = 'interactiveDefault' | 'interactiveMax' | 'batchDefault' | 'batchMax';

/**
 * An account's job run times as durations such as "90m", "24h" or "7d": its own settings
 * (null = the platform's) and the limits in force.
 */
export interface TimeLimits {
  interactiveDefault: string | null;
  interactiveMax: string | null;
  batchDefault: string | null;
  batchMax: string | null;
  effective: Record<TimeLimitField, string>;
}

/** New time limits for an account; an empty or absent field uses the platform's. */
export type TimeLimitsUpdate = Partial<Record<TimeLimitField, string>>;

/**
 * What a platform admin can turn off per account: the job kinds, "ssh" (SSH and the web terminal) and
 * "high-priority" (jobs submitted at high priority).
 */
export type FeatureName = 'jupyter' | 'webide' | 'custom' | 'pytorch' | 'inference' | 'ssh' | 'high-priority';

/** The settings in force: every feature on or off, and the caps on the pods in bits per second (null = none). */
export interface EffectiveFeatures {
  features: Record<string, boolean>;
  ingressBandwidth: string | null;
  egressBandwidth: string | null;
}

/**
 * An account's features and bandwidth caps: its own settings (a feature it did not set is absent; a null cap is
 * the platform's, "none" no cap) and those in force.
 */
export interface AccountFeatures {
  features: Record<string, boolean>;
  ingressBandwidth: string | null;
  egressBandwidth: string | null;
  effective: EffectiveFeatures;
}

/** New settings for an account: the features it sets itself and its caps (absent or empty: the platform's). */
export type AccountFeaturesUpdate = {
  features: Record<string, boolean>;
  ingressBandwidth?: string;
  egressBandwidth?: string;
};
