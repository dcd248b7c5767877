/** Wire types of the Crater REST API (v1). */

export type Role = 'admin' | 'user';

export interface User {
  id: string;
  username: string;
  displayName: string;
  role: Role;
}

export interface LoginRequest {
  username: string;
  password: string;
}

export interface SessionResponse {
  accessToken: string;
  /** Lifetime of the access token in seconds. */
  expiresIn: number;
  user: User;
}

export interface NodeAccelerator {
  model: string;
  displayName: string;
  vendor: string;
  resource: string;
  total: number;
  allocated: number;
}

export interface NodeCpu {
  totalMilli: number;
  allocatedMilli: number;
}

export interface NodeMemory {
  totalBytes: number;
  allocatedBytes: number;
}

export interface ClusterNode {
  name: string;
  ready: boolean;
  schedulable: boolean;
  accelerator: NodeAccelerator | null;
  cpu: NodeCpu;
  memory: NodeMemory;
  pods: number;
  labels: Record<string, string>;
}

export interface AcceleratorSummary {
  model: string;
  displayName: string;
  vendor: string;
  resource: string;
  nodes: number;
  total: number;
  allocated: number;
  free: number;
}

export interface ItemList<T> {
  items: T[];
}

export interface NodeEvent {
  type: 'updated' | 'deleted';
  node: ClusterNode;
}

/** RFC 9457 problem details, as sent by the server. */
export interface ProblemDetails {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  code?: string;
  reasons?: unknown[];
}

/** A page of a cursor-paged list; `nextCursor` is null on the last page. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

// ---- Current user (/me) ----

export type AccountKind = 'personal' | 'team';
export type AccountRole = 'admin' | 'member';
export type FileAccess = 'rw' | 'ro';

export interface MyAccount {
  slug: string;
  name: string;
  kind: AccountKind;
  role: AccountRole;
  fileAccess: FileAccess;
  expiresAt: string | null;
}

export interface Me {
  id: string;
  username: string;
  slug: string;
  uid: number;
  displayName: string;
  email: string | null;
  role: Role;
  defaultAccount: string;
  accounts: MyAccount[];
}

export interface ProfileUpdate {
  displayName?: string;
  email?: string;
}

export interface PasswordChange {
  currentPassword: string;
  newPassword: string;
}

export interface AccessToken {
  id: string;
  name: string;
  prefix: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  createdAt: string;
}

export interface CreatedAccessToken {
  id: string;
  name: string;
  prefix: string;
  expiresAt: string | null;
  createdAt: string;
  /** The secret; the server shows it only in this answer. */
  token: string;
}

export interface SshKey {
  id: string;
  name: string;
  type: string;
  fingerprint: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export interface Notification {
  id: string;
  /** The code the console renders it by (see reasonCodes.json), with `args`. */
  kind: string;
  /** The English text, shown when `args` is missing (notifications written before they had arguments). */
  message: string;
  args?: Record<string, string | number> | null;
  link: string | null;
  createdAt: string;
  readAt: string | null;
  /** The e-mail copy: none (not mailed), pending/sending, sent, failed (given up). */
  mail?: 'none' | 'pending' | 'sending' | 'sent' | 'failed';
}

// ---- Accelerator catalogue ----

export interface AcceleratorModel {
  key: string;
  displayName: string;
  vendor: string;
  resource: string;
  labelKey: string;
  labelValue: string;
  restricted: boolean;
}

export interface AcceleratorModelUpdate {
  displayName?: string;
  vendor?: string;
  restricted?: boolean;
}

// ---- Users (platform admin) ----

export interface ManagedUser {
  id: string;
  username: string;
  slug: string;
  uid: number;
  displayName: string;
  email: string | null;
  role: Role;
  disabled: boolean;
  createdAt: string;
  defaultAccount: string;
}

export interface UserCreate {
  username: string;
  displayName: string;
  email?: string;
  password?: string;
  role?: Role;
  /** Team accounts joined in the same transaction, with the role in each. */
  accounts?: { account: string; role: AccountRole }[];
}

export interface UserCreated {
  user: ManagedUser;
  /** Present only when the server generated the password; shown once. */
  password?: string;
}

export interface UserUpdate {
  displayName?: string;
  email?: string;
  role?: Role;
  disabled?: boolean;
}

export interface ImportCreated {
  line: number;
  username: string;
  password: string | null;
}

export interface ImportRefused {
  line: number;
  username: string | null;
  reason: string;
}

export interface ImportReport {
  created: ImportCreated[];
  refused: ImportRefused[];
}

// ---- Accounts ----

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

// ---- Approvals ----

export type ApprovalKind = 'quota-grant' | 'job-lock' | 'model-access';
export type ApprovalState = 'pending' | 'approved' | 'rejected' | 'cancelled' | 'expired';
export type ApprovalScope = 'mine' | 'review';

export interface PersonRef {
  username: string;
  displayName: string;
}

export interface Approval {
  id: string;
  kind: ApprovalKind;
  state: ApprovalState;
  account: string;
  requester: PersonRef;
  resource: string | null;
  amount: string | null;
  until: string | null;
  model: string | null;
  jobId: string | null;
  reason: string;
  reviewer: PersonRef | null;
  comment: string | null;
  createdAt: string;
  decidedAt: string | null;
}

export type ApprovalRequest =
  | { kind: 'quota-grant'; account: string; resource: string; amount: string; until: string; reason: string }
  | { kind: 'job-lock'; jobId: string; until: string; reason: string }
  | { kind: 'model-access'; account: string; model: string; reason: string };

// ---- Audit (platform admin) ----

export interface AuditEntry {
  id: string;
  at: string;
  actor: string;
  account: string | null;
  action: string;
  targetType: string;
  targetId: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  result: string;
  clientAddress: string;
}

export interface DeniedEntry {
  id: string;
  at: string;
  actor: string | null;
  method: string;
  path: string;
  code: string;
  clientAddress: string;
}

export interface AuditFilter {
  actor?: string;
  action?: string;
  account?: string;
  from?: string;
  to?: string;
}

// ---- Jobs ----

export type JobKind = 'jupyter' | 'webide' | 'custom' | 'pytorch' | 'inference';
export type JobState = 'Queued' | 'Admitted' | 'Pending' | 'Running' | 'Stopping' | 'Succeeded' | 'Failed' | 'Stopped' | 'Rejected';
export type JobPriority = 'low' | 'normal' | 'high';

/**
 * Why admission decided as it did: a stable code, a sentence from the server and the figures behind it
 * (milli-units for resources). `resource` is not always sent; the console then reads it from the message.
 */
export interface Reason {
  code: string;
  message: string;
  numbers: Record<string, number>;
  /** The names the reason is about: `resource`, `image`, `pod`, `node`, `detail`, `cause`, ... */
  args?: Record<string, string>;
  resource?: string;
}

export interface PodResources {
  cpu?: string;
  memory?: string;
  acceleratorModel?: string;
  accelerators?: number;
  sharedMemory?: string;
}

export interface SubmitJob {
  name: string;
  kind: JobKind;
  image?: string;
  command?: string[];
  args?: string[];
  workingDir?: string;
  env?: Record<string, string>;
  resources: PodResources;
  /** Extra pods beside the master (pytorch only). */
  workers?: number;
  /** e.g. "90m", "12h", "3d"; the kind's default when absent. */
  timeLimit?: string;
  priority?: JobPriority;
  /** Render the spec from a template; any other field given here overrides the rendered one. */
  template?: TemplateRef;
  /** The job this one was cloned from (recorded as its source). */
  sourceJob?: string;
  /** Run on idle capacity outside the account's quota; stopped first when a job within its quota needs the room. */
  backfill?: boolean;
}

/** A template, a version (the latest when absent) and the values of its parameters. */
export interface TemplateRef {
  id: string;
  version?: number;
  parameters: Record<string, string>;
}

/**
 * A job submitted from a template: the template gives the spec, the name and priority given here override
 * the rendered ones.
 */
export interface SubmitTemplateJob {
  name?: string;
  priority?: JobPriority;
  template: TemplateRef;
  /** Replaces the working directory the template gives. */
  workingDir?: string;
  /** The job this one was cloned from (recorded as its source). */
  sourceJob?: string;
}

export interface JobSummary {
  id: string;
  name: string;
  kind: JobKind;
  state: JobState;
  account: string;
  owner: string;
  /** Resource → quantity string ("4", "16Gi"); accelerators by catalogue model. */
  requests: Record<string, string>;
  borrowing: boolean;
  reasons: Reason[];
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface JobTransition {
  at: string;
  from: JobState | null;
  to: JobState;
  /** Its code: a history code or a reason code (reasonCodes.json). */
  reason: string | null;
  /** The English sentence, shown for codes the console does not know. */
  message: string | null;
  /** The numbers and names the code is rendered with; null when unknown. */
  args?: Record<string, string | number> | null;
}

/** The template (and its version) a job was rendered from. */
export interface JobTemplateLink {
  id: string;
  version: number;
  name: string;
}

export interface JobContainer {
  name: string;
  state: 'waiting' | 'running' | 'terminated';
  reason: string | null;
  exitCode: number | null;
  message: string | null;
  restarts: number;
}

/** A pod of the job as the cluster shows it now. */
export interface JobPod {
  name: string;
  /** Volcano task: main, master or worker. */
  task: string;
  index: number;
  phase: string;
  node: string | null;
  acceleratorModel: string | null;
  accelerators: number;
  startedAt: string | null;
  containers: JobContainer[];
}

/** A Kubernetes event about the job or one of its objects (live, or archived at the job's end). */
export interface JobEvent {
  at: string;
  type: 'Normal' | 'Warning';
  reason: string;
  object: string;
  message: string;
  count: number;
}

/** How a container ended, archived when the job finished. */
export interface ContainerExit {
  pod: string;
  container: string;
  exitCode: number | null;
  reason: string | null;
  message: string | null;
}

/** What the caller may do with the job. */
export interface JobPermissions {
  stop: boolean;
  delete: boolean;
  readLogs: boolean;
  resubmit: boolean;
}

export interface JobDetail {
  job: JobSummary;
  spec: SubmitJob;
  stateReason: string | null;
  stateMessage: string | null;
  history: JobTransition[];
  template: JobTemplateLink | null;
  /** The job this one was cloned or resubmitted from. */
  sourceJob: string | null;
  pods: JobPod[];
  events: JobEvent[];
  exits: ContainerExit[];
  permissions: JobPermissions;
}

// ---- Templates ----

export type TemplateVisibility = 'private' | 'account' | 'public';
/** `arguments`: a command line, split into words where its placeholder stands alone in a list. */
export type ParameterType = 'string' | 'text' | 'integer' | 'quantity' | 'duration' | 'model' | 'choice' | 'boolean' | 'arguments';

/**
 * A value a template asks for. The template's spec refers to it as `${name}`; a string that is exactly
 * `${name}` takes the typed value (a number for `integer`).
 */
export interface TemplateParameter {
  name: string;
  label: string;
  description: string | null;
  type: ParameterType;
  /** Values travel as strings ("2", "16Gi", "true"). */
  default: string | null;
  required: boolean;
  /** The allowed values of a `choice`. */
  options: string[] | null;
  /** Label and description per language (`en`, `zh-CN`); built-in templates carry both. */
  i18n?: Record<string, { label: string | null; description: string | null }> | null;
}

export interface TemplateSummary {
  id: string;
  name: string;
  description: string;
  kind: JobKind;
  builtin: boolean;
  visibility: TemplateVisibility;
  /** The account it is shared with (visibility `account`). */
  account: string | null;
  /** Username of its author; null for built-in templates. */
  owner: string | null;
  version: number;
  updatedAt: string;
  /** Name and description per language (`en`, `zh-CN`); built-in templates carry both. */
  i18n?: Record<string, { name: string | null; description: string | null }> | null;
}

export interface Template extends TemplateSummary {
  parameters: TemplateParameter[];
  /** A job spec (SubmitJob fields) with `${name}` placeholders. */
  spec: Record<string, unknown>;
  /** Whether the caller may change or delete it (its author, or a platform admin for shared ones). */
  canEdit: boolean;
}

export interface TemplateVersion {
  version: number;
  createdAt: string;
  createdBy: string | null;
}

export interface SaveTemplate {
  name: string;
  description: string;
  visibility: TemplateVisibility;
  account?: string | null;
  parameters: TemplateParameter[];
  spec: Record<string, unknown>;
}

/** Saves a job's spec as a new template (no parameters). */
export interface SaveJobAsTemplate {
  name: string;
  description: string;
  visibility: TemplateVisibility;
  account?: string | null;
}

/** A template rendered with parameter values: the job spec, also as YAML for the advanced view. */
export interface RenderedTemplate {
  spec: SubmitJob;
  yaml: string;
}

export type AdmissionDecision = 'ADMIT' | 'QUEUE' | 'REJECT';

/** Answer to a dry run: what admission would decide now; nothing is created. */
export interface DryRunResult {
  decision: AdmissionDecision;
  reasons: Reason[];
  /** Resources the job would borrow beyond the account's guarantee. */
  borrowing: string[];
  /** The objects the job would become, as YAML. */
  manifests: string;
}

// ---- Why a job waits ----

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

// ---- Reaching into a running job: terminal and SSH ----

/** One running pod's ways in. */
export interface ConnectPod {
  pod: string;
  /** Path of the terminal WebSocket, same origin (e.g. /api/v1/jobs/j1/terminal?pod=worker-1). */
  terminal: string;
  /** The SSH login name (user+job[+pod]). */
  login: string;
  /** The exact ssh command. */
  command: string;
  /** A ~/.ssh/config entry whose Host line is the alias (for VS Code Remote-SSH). */
  sshConfig: string;
}

/** GET /jobs/{id}/connect. */
export interface JobConnect {
  job: string;
  state: JobState;
  /** Whether the caller may open a terminal or SSH session now (the owner, while it runs). */
  reachable: boolean;
  /** Whether Crater's SSH gateway listens. */
  sshEnabled: boolean;
  sshHost: string;
  sshPort: number;
  pods: ConnectPod[];
}

// ---- Accelerator utilisation and idle reclamation ----

export interface UtilisationSample {
  at: string;
  percent: number;
}

/** The samples of one accelerator of one pod. */
export interface UtilisationSeries {
  pod: string;
  accelerator: string;
  samples: UtilisationSample[];
}

export type IdleDecisionKind = 'Busy' | 'Unknown' | 'Exempt' | 'Warn' | 'Waiting' | 'Stop';

/** What the idle check would decide now, with its numbers (the fields of other kinds are null). */
export interface IdleDecision {
  kind: IdleDecisionKind;
  /** Why it is Unknown (YoungerThanWindow, NoSamples, SampleGap, ...). */
  why: string | null;
  message: string;
  peakPercent: number | null;
  meanPercent: number | null;
  thresholdPercent: number | null;
  windowSeconds: number | null;
  /** Warn/Waiting: when it is stopped if it stays idle. */
  stopAt: string | null;
  idleSince: string | null;
  /** Exempt: until when its job lock holds. */
  lockUntil: string | null;
  numbers: Record<string, number> | null;
}

/** GET /jobs/{id}/gpu-utilisation. */
export interface GpuUtilisation {
  job: string;
  /** The accelerator model; null when the job holds none. */
  model: string | null;
  accelerators: number;
  metric: string;
  thresholdPercent: number;
  windowSeconds: number;
  graceSeconds: number;
  from: string;
  to: string;
  series: UtilisationSeries[];
  /** Why there are no samples when the metrics source could not be read. */
  unavailable: string | null;
  /** Null unless the job is a running interactive job holding accelerators. */
  decision: IdleDecision | null;
}

// ---- Accounting (docs/accounting.md): money is decimal text and integer micro-units side by side ----

/** A price per unit-hour of one resource from `effectiveFrom` on. */
export interface Price {
  /** cpu, memory or an accelerator model key. */
  resource: string;
  /** core-hour, GiB-hour or device-hour. */
  unit: string;
  pricePerHour: string;
  microsPerHour: number;
  effectiveFrom: string;
  /** Who set it. */
  by: string | null;
}

/** The price book: the prices in force now (one per resource) and every version. */
export interface PriceBook {
  currency: string;
  current: Price[];
  history: Price[];
}

/** What a platform admin sends to set a price; `effectiveFrom` left out means from now. */
export interface NewPrice {
  resource: string;
  pricePerHour: string;
  effectiveFrom?: string;
}

export type BudgetPeriod = 'month' | 'week';
export type BudgetPolicy = 'hard' | 'soft' | 'stop';
export type BudgetRenewal = 'reset' | 'carry';

/** A budget's settings and its current period. */
export interface BudgetInfo {
  amount: string;
  amountMicros: number;
  period: BudgetPeriod;
  policy: BudgetPolicy;
  renewal: BudgetRenewal;
  periodStart: string;
  periodEnd: string;
}

/** What the last 24 hours cost, and when the balance runs out at that rate (null: it does not, or no budget). */
export interface Burn {
  perDay: string;
  perDayMicros: number;
  runsOutAt: string | null;
}

/** What the account's running jobs hold of one resource now, and what that costs per hour. */
export interface Holding {
  resource: string;
  /** Milli-units: millicores, milli-bytes of memory, milli-devices. */
  milli: number;
  pricePerHour: string;
  costPerHourMicros: number;
}

/** An account's money: budget (null when none), balance (negative: spent beyond what was issued), burn rate. */
export interface BudgetView {
  account: string;
  currency: string;
  budget: BudgetInfo | null;
  balance: string;
  balanceMicros: number;
  spent: string;
  spentMicros: number;
  /** Share of the budget spent, 0–1000; null without a budget. */
  usedPercent: number | null;
  burn: Burn;
  holding: Holding[];
}

export interface BudgetUpdate {
  amount: string;
  period: BudgetPeriod;
  policy: BudgetPolicy;
  renewal: BudgetRenewal;
}

export interface TopUp {
  amount: string;
  note: string;
}

export type LedgerKind = 'issue' | 'expire' | 'charge' | 'refund' | 'adjust';

/** One entry of an account's book, newest first. */
export interface LedgerEntry {
  id: number;
  kind: LedgerKind;
  amount: string;
  amountMicros: number;
  balanceAfter: string;
  balanceAfterMicros: number;
  /** The job's public id, for charges and refunds. */
  job: string | null;
  user: string | null;
  windowStart: string | null;
  windowEnd: string | null;
  note: string | null;
  actor: string | null;
  at: string;
}

export type UsageGrouping = 'resource' | 'user' | 'day' | 'month' | 'account';

/** One group's holding of one resource: `held` in unit-hours (device-, core- or GiB-hours). */
export interface UsageRow {
  /** The group: '' by resource, a username, a day (YYYY-MM-DD in the platform's zone), a month or an account. */
  key: string;
  resource: string;
  unit: string;
  held: number;
  cost: string;
  costMicros: number;
  /** Accelerators only (null for CPU and memory): device-hours with utilisation samples. */
  measured: number | null;
  /** Device-hours weighted by utilisation: 2 GPUs at 50 % for an hour are 1. */
  used: number | null;
  /** Held but without samples: neither idle nor busy. */
  unknown: number | null;
  /** used ÷ measured, 0–1; null when nothing was measured. */
  efficiency: number | null;
  /** What the measured idle part cost. */
  idleCost: string | null;
  idleCostMicros: number | null;
}

/** Every accelerator row of a report together. */
export interface AcceleratorUse {
  held: number;
  measured: number;
  used: number;
  efficiency: number | null;
  idleCost: string;
  idleCostMicros: number;
}

export interface UsageReport {
  account: string | null;
  from: string;
  to: string;
  by: UsageGrouping;
  currency: string;
  rows: UsageRow[];
  total: string;
  totalMicros: number;
  accelerators: AcceleratorUse;
}
