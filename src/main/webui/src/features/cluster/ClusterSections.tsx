import { useTranslation } from 'react-i18next';
import { EmptyState, ErrorState, LoadingState } from '../../components/common/States';
import { AcceleratorCards } from './AcceleratorCards';
import { NodeActions } from './NodeActions';
import { NodeTable } from './NodeTable';
import { useAccelerators, useNodes } from './queries';

/**
 * Accelerator cards with loading, empty and error states. Without the live node stream (only platform
 * admins receive it) the totals are refreshed every 15 seconds instead.
 */
export function AcceleratorSection({ live = true }: { live?: boolean }) {
  const { t } = useTranslation();
  const query = useAccelerators(live ? false : 15_000);
  if (query.isPending) return <LoadingState />;
  if (query.isError) {
    return <ErrorState title={t('accelerator.loadError')} error={query.error} onRetry={() => void query.refetch()} />;
  }
  if (query.data.items.length === 0) return <EmptyState title={t('accelerator.empty')} />;
  return <AcceleratorCards items={query.data.items} />;
}

/** Node table with loading, empty and error states. */
export function NodeSection() {
  const { t } = useTranslation();
  const query = useNodes();
  if (query.isPending) return <LoadingState />;
  if (query.isError) {
    return <ErrorState title={t('nodes.loadError')} error={query.error} onRetry={() => void query.refetch()} />;
  }
  if (query.data.items.length === 0) return <EmptyState title={t('nodes.empty')} />;
  return (
    <div className="flex flex-col gap-2">
      <p className="text-xs text-slate-500">{t('nodes.count', { count: query.data.items.length })}</p>
      <NodeTable items={query.data.items} actions={(node) => <NodeActions node={node} />} />
    </div>
  );
}
