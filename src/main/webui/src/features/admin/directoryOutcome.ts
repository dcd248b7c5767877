import type { DirectorySyncOutcome } from '../../api/types';
import type { BadgeTone } from '../../components/common/StatusBadge';

/** The badge of a directory sync's outcome. */
export function outcomeTone(outcome: DirectorySyncOutcome): BadgeTone {
  return outcome === 'ok' ? 'success' : outcome === 'partial' ? 'warning' : 'danger';
}
