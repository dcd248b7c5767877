import type { JobState } from '../../api/types';
import type { BadgeTone } from '../../components/common/StatusBadge';

export const JOB_STATES: readonly JobState[] = [
  'Queued',
  'Admitted',
  'Pending',
  'Running',
  'Stopping',
  'Succeeded',
  'Failed',
  'Stopped',
  'Rejected',
];

/** States a job never leaves. */
export const FINISHED_STATES: readonly JobState[] = ['Succeeded', 'Failed', 'Stopped', 'Rejected'];

/** Whether the job has ended (unknown states count as not finished, so they keep being polled). */
export function isFinished(state: JobState | string): boolean {
  return (FINISHED_STATES as readonly string[]).includes(state);
}

/**
 * Badge colour of a job state: waiting in the queue is a warning, on its way or running is info,
 * success and failure are what they say, a stopped job is neutral.
 */
export function jobStateTone(state: JobState | string): BadgeTone {
  switch (state) {
    case 'Queued':
      return 'warning';
    case 'Admitted':
    case 'Pending':
    case 'Running':
    case 'Stopping':
      return 'info';
    case 'Succeeded':
      return 'success';
    case 'Failed':
    case 'Rejected':
      return 'danger';
    default:
      return 'neutral';
  }
}

/** i18n key of the state label; unknown states fall back to a generic label. */
export function jobStateLabelKey(state: string): string {
  return (JOB_STATES as readonly string[]).includes(state) ? `jobs.state.${state}` : 'jobs.state.unknown';
}

/** Badge colour of a Kubernetes pod phase. */
export function podPhaseTone(phase: string): BadgeTone {
  switch (phase) {
    case 'Running':
      return 'info';
    case 'Succeeded':
      return 'success';
    case 'Failed':
      return 'danger';
    case 'Pending':
      return 'warning';
    default:
      return 'neutral';
  }
}
