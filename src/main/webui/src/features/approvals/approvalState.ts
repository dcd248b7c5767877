import type { ApprovalState } from '../../api/types';
import type { BadgeTone } from '../../components/common/StatusBadge';

export const APPROVAL_STATES: readonly ApprovalState[] = ['pending', 'approved', 'rejected', 'cancelled', 'expired'];

/** Badge colour of an approval state: pending waits (warning), approved is done (success), rejected failed. */
export function approvalStateTone(state: ApprovalState | string): BadgeTone {
  switch (state) {
    case 'pending':
      return 'warning';
    case 'approved':
      return 'success';
    case 'rejected':
      return 'danger';
    default:
      return 'neutral';
  }
}

/** i18n key of the state label; unknown states fall back to a generic label. */
export function approvalStateLabelKey(state: string): string {
  return (APPROVAL_STATES as readonly string[]).includes(state) ? `approvals.state.${state}` : 'approvals.state.unknown';
}
