import { useTranslation } from 'react-i18next';
import type { ApprovalState } from '../../api/types';
import { StatusBadge } from '../../components/common/StatusBadge';
import { approvalStateLabelKey, approvalStateTone } from './approvalState';

export function ApprovalStateBadge({ state }: { state: ApprovalState }) {
  const { t } = useTranslation();
  return <StatusBadge tone={approvalStateTone(state)} label={t(approvalStateLabelKey(state))} value={state} />;
}
