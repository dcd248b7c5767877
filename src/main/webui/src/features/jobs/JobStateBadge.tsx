import { useTranslation } from 'react-i18next';
import type { JobState } from '../../api/types';
import { StatusBadge } from '../../components/common/StatusBadge';
import { jobStateLabelKey, jobStateTone } from './jobState';

export function JobStateBadge({ state }: { state: JobState }) {
  const { t } = useTranslation();
  return <StatusBadge tone={jobStateTone(state)} label={t(jobStateLabelKey(state))} value={state} />;
}
