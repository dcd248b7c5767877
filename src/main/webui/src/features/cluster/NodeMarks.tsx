import { useTranslation } from 'react-i18next';
import type { ClusterNode } from '../../api/types';
import { StatusBadge } from '../../components/common/StatusBadge';
import { formatDateTime } from '../../lib/time';

/** "Exclusive to vision-lab": only that team account's jobs are placed on the node. Nothing when it is shared. */
export function ExclusiveBadge({ node }: { node: ClusterNode }) {
  const { t } = useTranslation();
  const ex = node.exclusive;
  if (!ex) return null;
  const label = ex.account !== '' ? t('nodeMarks.exclusiveTo', { account: ex.account }) : t('nodeMarks.exclusiveOutside');
  return (
    <span
      data-testid="node-exclusive"
      data-account={ex.account}
      title={ex.account !== '' ? t('nodeMarks.exclusiveHint', { account: ex.account }) : t('nodeMarks.exclusiveOutsideHint')}
    >
      <StatusBadge tone="info" label={label} value="exclusive" />
    </span>
  );
}

/**
 * The node's GPU health when it is not healthy: a badge (suspect or quarantined) and a sentence saying what it
 * means, why and since when. Nothing when healthy.
 */
export function HealthBadge({ node, compact = false }: { node: ClusterNode; compact?: boolean }) {
  const { t, i18n } = useTranslation();
  const h = node.health;
  if (!h) return null;
  const quarantined = h.state === 'quarantined';
  const values = { reason: h.reason, since: formatDateTime(h.since, i18n.language) };
  return (
    <div data-testid="node-health" data-state={h.state} className="flex flex-col items-start gap-1">
      <StatusBadge
        tone={quarantined ? 'danger' : 'warning'}
        label={t(quarantined ? 'nodeMarks.quarantined' : 'nodeMarks.suspect')}
        value={h.state}
      />
      <p
        data-testid="node-health-text"
        className={`${compact ? 'max-w-56' : ''} text-xs ${quarantined ? 'text-rose-700' : 'text-amber-700'}`}
      >
        {t(quarantined ? 'nodeMarks.quarantinedText' : 'nodeMarks.suspectText', values)}
      </p>
    </div>
  );
}
