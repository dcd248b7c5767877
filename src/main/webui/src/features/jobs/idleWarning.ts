import type { Approval, IdleDecision } from '../../api/types';

/** The end an extension asks for by default: short enough to be approved at once (docs/interactive.md). */
export const EXTENSION_HOURS = 3;

/** What the idle warning says: the numbers behind it and when the job will be stopped. */
export interface IdleWarning {
  /** `warned`: it will be stopped at `stopAt` if it stays idle; `stopping`: at the next check. */
  stage: 'warned' | 'stopping';
  peakPercent: number;
  meanPercent: number;
  thresholdPercent: number;
  windowSeconds: number;
  stopAt: string | null;
}

/** The warning an idle decision calls for (Warn, Waiting: stop pending; Stop: at the next check), else null. */
export function idleWarningOf(decision: IdleDecision | null | undefined): IdleWarning | null {
  if (!decision) return null;
  const { kind } = decision;
  if (kind !== 'Warn' && kind !== 'Waiting' && kind !== 'Stop') return null;
  return {
    stage: kind === 'Stop' ? 'stopping' : 'warned',
    peakPercent: decision.peakPercent ?? 0,
    meanPercent: decision.meanPercent ?? 0,
    thresholdPercent: decision.thresholdPercent ?? 0,
    windowSeconds: decision.windowSeconds ?? 0,
    stopAt: kind === 'Stop' ? null : decision.stopAt,
  };
}

/** The caller's job-lock request for the job that still awaits review, if any. */
export function pendingExtensionOf(approvals: readonly Approval[], jobId: string): Approval | null {
  return approvals.find((a) => a.kind === 'job-lock' && a.jobId === jobId && a.state === 'pending') ?? null;
}

/** The default end of an extension asked for at `now`. */
export function extensionUntil(now: Date): Date {
  return new Date(now.getTime() + EXTENSION_HOURS * 3_600_000);
}
