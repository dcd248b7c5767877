import type { JobTransition, Reason } from '../../api/types';
import codes from '../../i18n/reasonCodes.json';
import { formatReason, type NameOf, type Translate } from './reasons';

const HISTORY = new Set<string>(codes.history);
const REASONS = new Set<string>(codes.reasons);

type Args = Record<string, string | number>;

function num(args: Args, key: string): number | undefined {
  const v = args[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

function str(args: Args, key: string): string | undefined {
  const v = args[key];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** A history entry's arguments as a reason: numbers apart from names. */
export function asReason(code: string, message: string, args: Args): Reason {
  const numbers: Record<string, number> = {};
  const names: Record<string, string> = {};
  for (const [k, v] of Object.entries(args)) {
    if (typeof v === 'number') numbers[k] = v;
    else if (typeof v === 'string') names[k] = v;
  }
  return { code, message, numbers, args: names };
}

/** The sentence of a history code with its arguments; null when a figure it needs is missing. */
function historySentence(code: string, args: Args, t: Translate, nameOf: NameOf): string | null {
  switch (code) {
    case 'Admitted':
      return num(args, 'borrowing') === 1 || str(args, 'borrowing')
        ? t('history.AdmittedBorrowing')
        : num(args, 'borrowing') === 0
          ? t('history.Admitted')
          : t('history.AdmittedAny');
    case 'StopRequested': {
      const by = str(args, 'by');
      return by ? t('history.StopRequested', { by }) : t('history.StopRequestedAny');
    }
    case 'Stopped':
      return num(args, 'queued') === 1 ? t('history.StoppedQueued') : t('history.Stopped');
    case 'IdleReclaimed': {
      const model = str(args, 'model');
      const accelerators = num(args, 'accelerators');
      const peak = num(args, 'peakPercent');
      if (model && accelerators !== undefined && peak !== undefined) {
        return t('history.IdleReclaimed', { count: accelerators, model: nameOf(model), peak: peak.toFixed(1) });
      }
      return t('history.IdleReclaimedAny');
    }
    case 'BudgetStopped': {
      const minutes = num(args, 'graceMinutes');
      return minutes !== undefined ? t('history.BudgetStopped', { minutes }) : t('history.BudgetStoppedAny');
    }
    case 'NodeDrained': {
      const node = str(args, 'node');
      const by = str(args, 'by');
      const reason = str(args, 'reason');
      return node && by && reason ? t('history.NodeDrained', { node, by, reason }) : t('history.NodeDrainedAny');
    }
    case 'Requeued': {
      const from = str(args, 'from');
      const node = str(args, 'node');
      return from && node ? t('history.Requeued', { from, node }) : t('history.RequeuedAny');
    }
    case 'TensorboardIdle': {
      const name = str(args, 'name');
      const seconds = num(args, 'idleSeconds');
      return name && seconds !== undefined
        ? t('history.TensorboardIdle', { name, minutes: Math.round(seconds / 60) })
        : t('history.TensorboardIdleAny');
    }
    case 'AccountArchived': {
      const account = str(args, 'account');
      const by = str(args, 'by');
      return account && by ? t('history.AccountArchived', { account, by }) : t('history.AccountArchivedAny');
    }
    case 'PodRunning':
    case 'PodPending':
    case 'PodFailed':
    case 'TaskCompleted': {
      const total = num(args, 'total');
      if (total === undefined) return t(`history.${code}Any`);
      return t(`history.${code}`, {
        count: total,
        running: num(args, 'running') ?? 0,
        pending: num(args, 'pending') ?? 0,
        failed: num(args, 'failed') ?? 0,
        succeeded: num(args, 'succeeded') ?? 0,
      });
    }
    default:
      return t(`history.${code}`);
  }
}

/**
 * What a history entry says, in the UI language: a history code or a reason code rendered from its arguments;
 * for codes the console does not know, the server's reason and message as they are.
 */
export function historyText(h: JobTransition, t: Translate, nameOf: NameOf = (k) => k): string {
  const code = h.reason ?? '';
  const args: Args = h.args ?? {};
  if (HISTORY.has(code)) {
    const sentence = historySentence(code, args, t, nameOf);
    if (sentence !== null) return sentence;
  }
  if (REASONS.has(code)) return formatReason(asReason(code, h.message ?? '', args), t, Date.now(), nameOf);
  return [h.reason, h.message].filter((s) => s !== null && s !== '').join(': ');
}
