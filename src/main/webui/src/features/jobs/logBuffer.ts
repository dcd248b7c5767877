import type { ContainerExit, JobPod } from '../../api/types';

/** Lines kept while following a log; older ones are dropped. */
export const MAX_LOG_LINES = 5_000;
/** Reconnects of a log stream in a row before giving up (the stream ends when the container does). */
export const LOG_STREAM_MAX_RETRIES = 3;
/** A connection that lasted this long was a healthy stream cut by the network, not a container that ended. */
export const LOG_STREAM_HEALTHY_MS = 30_000;
/** Pixels from the bottom within which the log view keeps scrolling with new lines. */
export const STICK_TO_BOTTOM_PX = 24;

/** `lines` followed by `added`, keeping only the last `cap` lines. Never changes its arguments. */
export function appendLines(lines: readonly string[], added: readonly string[], cap: number = MAX_LOG_LINES): string[] {
  if (cap <= 0) return [];
  if (added.length >= cap) return added.slice(added.length - cap);
  const drop = Math.max(0, lines.length + added.length - cap);
  return [...lines.slice(drop), ...added];
}

/** Log text as lines, without the empty line after the final newline. */
export function splitLogText(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * The pod whose log to show first: the job's main pod (name ending in -main-0 or -master-0), else the first
 * pod of task main/master, else the first pod; null without pods.
 */
export function mainPodName(pods: readonly Pick<JobPod, 'name' | 'task' | 'index'>[]): string | null {
  const byName = pods.find((p) => p.name.endsWith('-main-0') || p.name.endsWith('-master-0'));
  if (byName) return byName.name;
  const byTask = pods.find((p) => (p.task === 'main' || p.task === 'master') && p.index === 0);
  return (byTask ?? pods[0])?.name ?? null;
}

/**
 * The pods whose logs can be read: the live pods, then those only known from the archived exits
 * (a finished job has no pods left), each once, in order.
 */
export function logPodNames(pods: readonly Pick<JobPod, 'name'>[], exits: readonly Pick<ContainerExit, 'pod'>[]): string[] {
  const names: string[] = [];
  for (const name of [...pods.map((p) => p.name), ...exits.map((e) => e.pod)]) {
    if (name && !names.includes(name)) names.push(name);
  }
  return names;
}

/**
 * The pod to show: the user's choice while it exists, else the main pod among the live pods, else among
 * the readable names (archived exits), else '' (the server's default).
 */
export function selectedPod(choice: string, pods: readonly Pick<JobPod, 'name' | 'task' | 'index'>[], names: readonly string[]): string {
  if (choice !== '' && names.includes(choice)) return choice;
  return mainPodName(pods) ?? mainPodName(names.map((name) => ({ name, task: '', index: -1 }))) ?? '';
}

/**
 * After a log stream dropped: the new count of reconnects in a row, or null to stop. A connection that
 * lasted LOG_STREAM_HEALTHY_MS or more starts the count again; short ones (the server closing right after
 * re-sending the tail because the container ended) use it up.
 */
export function nextRetryCount(retries: number, connectedMs: number | null): number | null {
  const base = connectedMs !== null && connectedMs >= LOG_STREAM_HEALTHY_MS ? 0 : retries;
  return base >= LOG_STREAM_MAX_RETRIES ? null : base + 1;
}

/** Whether a scrolled box is (nearly) at its bottom, so new lines should keep it there. */
export function isNearBottom(box: { scrollTop: number; scrollHeight: number; clientHeight: number }): boolean {
  return box.scrollHeight - box.scrollTop - box.clientHeight <= STICK_TO_BOTTOM_PX;
}
