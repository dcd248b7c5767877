/**
 * The server's limits on what a user may enter, mirrored once for the console's own checks (the server checks
 * again and has the last word: io.crater.policy.Amounts for quota and limits, io.crater.job.JobSpecs for jobs).
 */

const GiB = 1024 ** 3;
const TiB = 1024 * GiB;

/** A job's display name: 1 to 100 characters (refused above, never cut). */
export const MAX_JOB_NAME = 100;

/** A template's name: 1 to 100 characters. */
export const MAX_TEMPLATE_NAME = 100;

/** One pod of a job. */
export const JOB_LIMITS = {
  maxCpuMilli: 1024 * 1000,
  minMemoryBytes: 1000 * 1024 ** 2,
  maxMemoryBytes: 16 * TiB,
  maxAccelerators: 64,
  maxWorkers: 255,
} as const;

/** A quota line, a member limit or a grant. */
export const QUOTA_LIMITS = {
  maxCpuMilli: 1_000_000 * 1000,
  maxMemoryBytes: 2 ** 53,
  maxAccelerators: 100_000,
} as const;

/** Running jobs and sessions a member limit may count. */
export const MAX_COUNT_LIMIT = 1_000_000;
