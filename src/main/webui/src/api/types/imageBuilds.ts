/** Wire types of image builds: images built by a job in the cluster and put in the catalogue (docs/assets.md). */

/** building, pushed (the job succeeded, the registry is being asked), succeeded, failed or stopped. */
export type BuildState = 'building' | 'pushed' | 'succeeded' | 'failed' | 'stopped';

/**
 * A build to start: either `base` with `pip` and `apt` packages, or a `dockerfile`; the image it pushes
 * (`registry/repository:tag`), the registry credential that logs in there, and what the catalogue entry says.
 */
export interface CreateBuild {
  base?: string;
  pip?: string[];
  apt?: string[];
  dockerfile?: string;
  destination: string;
  credential?: string;
  description?: string;
  cudaVersion?: string;
  kinds?: string[];
  vendors?: string[];
  /** The builder's CPU and memory (Kubernetes quantities); the server's defaults when absent. */
  cpu?: string;
  memory?: string;
}

/** A build as its owner sees it; on a failure its reason, detail and log tail, on success the catalogue image. */
export interface Build {
  id: string;
  owner: string;
  account: string;
  source: 'packages' | 'dockerfile';
  base: string | null;
  pip: string[];
  apt: string[];
  dockerfile: string;
  destination: string;
  credential: string | null;
  builder: string;
  description: string;
  state: BuildState;
  job: string | null;
  jobState: string | null;
  reason: string | null;
  detail: string | null;
  logTail: string | null;
  image: string | null;
  digest: string | null;
  createdAt: string;
  finishedAt: string | null;
}

/** A page of builds, newest first. */
export interface BuildPage {
  items: Build[];
  nextCursor: string | null;
}
