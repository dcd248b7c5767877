import type { ContainerExit, JobState } from '../../api/types';
import { parseQuantityMilli } from '../../lib/units';
import { amountText, type Translate } from './reasons';

/** A plain-language explanation of how a container ended: an i18n key under `jobs.exit.explain` and its values. */
export interface ExitExplanation {
  key: string;
  values: Record<string, string | number>;
}

/** Kubernetes reasons for an image that could not be pulled. */
const IMAGE_PULL_REASONS = new Set(['ErrImagePull', 'ImagePullBackOff', 'ErrImageNeverPull', 'RegistryUnavailable', 'ImageInspectError']);
/** Reasons for a container that was never started. */
const CANNOT_START_REASONS = new Set([
  'ContainerCannotRun',
  'CreateContainerError',
  'CreateContainerConfigError',
  'StartError',
  'RunContainerError',
]);

/** The memory limit as shown to people: "16Gi" → "16 GiB"; the raw text when it cannot be parsed. */
export function memoryLimitText(limit: string | null | undefined): string | null {
  const text = (limit ?? '').trim();
  if (text === '') return null;
  const milli = parseQuantityMilli(text);
  return milli === null || milli <= 0 ? text : amountText('memory', milli);
}

/**
 * Why a container ended, from its reason first (out of memory, time limit, image or start problems),
 * then its exit code (0 completed, 1/2 program error, 126/127 command not runnable / not found,
 * 137 SIGKILL, 143 SIGTERM, else the bare code). `memoryLimit` is the pod's memory quantity ("16Gi").
 */
export function exitExplanation(exit: Pick<ContainerExit, 'exitCode' | 'reason'>, memoryLimit?: string | null): ExitExplanation {
  const reason = exit.reason ?? '';
  const code = exit.exitCode;
  if (reason === 'OOMKilled') {
    const limit = memoryLimitText(memoryLimit);
    return limit === null ? { key: 'oom', values: {} } : { key: 'oomLimit', values: { limit } };
  }
  if (reason === 'DeadlineExceeded') return { key: 'deadline', values: {} };
  if (reason === 'InvalidImageName') return { key: 'invalidImage', values: {} };
  if (IMAGE_PULL_REASONS.has(reason)) return { key: 'imagePull', values: {} };
  if (CANNOT_START_REASONS.has(reason)) return { key: 'cannotStart', values: {} };
  if (code !== null) {
    switch (code) {
      case 0:
        return { key: 'completed', values: {} };
      case 1:
      case 2:
        return { key: 'programError', values: { code } };
      case 126:
        return { key: 'notExecutable', values: {} };
      case 127:
        return { key: 'notFound', values: {} };
      case 137:
        return { key: 'sigkill', values: {} };
      case 143:
        return { key: 'sigterm', values: {} };
      default:
        return { key: 'code', values: { code } };
    }
  }
  if (reason === 'Completed') return { key: 'completed', values: {} };
  if (reason !== '') return { key: 'reason', values: { reason } };
  return { key: 'unknown', values: {} };
}

/** The explanation as a sentence in the UI language. */
export function explainExit(exit: Pick<ContainerExit, 'exitCode' | 'reason'>, t: Translate, memoryLimit?: string | null): string {
  const { key, values } = exitExplanation(exit, memoryLimit);
  return t(`jobs.exit.explain.${key}`, values);
}

/** Whether the container ended well (exit code 0 or reason Completed). */
export function exitSucceeded(exit: Pick<ContainerExit, 'exitCode' | 'reason'>): boolean {
  return exit.exitCode === 0 || (exit.exitCode === null && exit.reason === 'Completed');
}

/** A container of a stopped job that had not started yet: nothing went wrong, it was stopped first. */
export function stoppedBeforeStart(exit: ContainerExit, state: JobState | undefined): boolean {
  return state === 'Stopped' && exit.exitCode === null && !exit.reason;
}
