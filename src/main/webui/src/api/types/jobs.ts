/** Wire types of the Crater REST API (v1): Jobs. */

import type { AssetMount } from './assets';
import type { EnvValue } from './credentials';

export type JobKind = 'jupyter' | 'webide' | 'custom' | 'pytorch' | 'inference' | 'tensorboard';
export type JobState = 'Queued' | 'Admitted' | 'Pending' | 'Running' | 'Stopping' | 'Succeeded' | 'Failed' | 'Stopped' | 'Rejected';
export type JobPriority = 'low' | 'normal' | 'high';

/**
 * Why admission decided as it did: a stable code, a sentence from the server and the figures behind it
 * (milli-units for resources). The resource it is about, when there is one, is `args.resource`.
 */
export interface Reason {
  code: string;
  message: string;
  numbers: Record<string, number>;
  /** The names the reason is about: `resource`, `image`, `pod`, `node`, `detail`, `cause`, ... */
  args?: Record<string, string>;
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
  env?: Record<string, EnvValue>;
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
  /** Datasets and models mounted read-only. */
  mounts?: JobMount[];
  /** Nodes to run on only (`use`) or never (`avoid`), by name; one of the two. */
  nodes?: NodeTargets;
}

/** The nodes a job asks to use (only these) or to avoid (any but these), by name. */
export interface NodeTargets {
  use?: string[] | null;
  avoid?: string[] | null;
}

/** A dataset or a model (one of the two: name, owner/name or id) mounted read-only at `path`. */
export interface JobMount {
  dataset?: string | null;
  model?: string | null;
  path: string;
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
  /** Replaces the nodes the template names, if any. */
  nodes?: NodeTargets;
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
  /** The datasets and models the job mounts. */
  mounts: AssetMount[];
}
