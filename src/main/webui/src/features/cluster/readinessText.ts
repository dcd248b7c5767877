import type { ReadinessCheck, ReadinessReason } from '../../api/types';
import type { BadgeTone } from '../../components/common/StatusBadge';

/** A check's state → its badge tone. */
export function readinessTone(state: ReadinessCheck['state'] | 'ok' | 'degraded'): BadgeTone {
  switch (state) {
    case 'ok':
      return 'success';
    case 'degraded':
      return 'danger';
    default:
      return 'neutral';
  }
}

/** The i18n key of a reason, and its arguments; an unknown code falls back to the code and its facts. */
export function reasonKey(reason: ReadinessReason): { key: string; args: Record<string, string>; fallback: string } {
  const facts = Object.entries(reason.args)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
  return {
    key: `readiness.reasons.${reason.code}`,
    args: reason.args,
    fallback: facts ? `${reason.code} (${facts})` : reason.code,
  };
}
