/** A log folder as asked for: a space's folder (`space`, `path`) or a job's working directory (`job`). */
export interface TensorboardSourceRequest {
  space?: string;
  path?: string;
  job?: string;
  /** The prefix of its runs in TensorBoard; by default the folder's last name or the job's id. */
  name?: string;
}

export interface CreateTensorboard {
  name: string;
  sources: TensorboardSourceRequest[];
}

/** A log folder as the panel shows it. */
export interface TensorboardSource {
  name: string;
  space: string;
  path: string;
  job: string | null;
  mountPath: string;
}

/** A TensorBoard panel (docs/assets.md): its server job's state while it runs, else `Stopped`. */
export interface Tensorboard {
  id: string;
  name: string;
  account: string | null;
  state: string;
  job: string | null;
  stoppedReason: string | null;
  startedAt: string | null;
  stoppedAt: string | null;
  lastUsedAt: string | null;
  sources: TensorboardSource[];
  createdAt: string;
}

/** One's panels, newest first. */
export interface TensorboardList {
  items: Tensorboard[];
}
