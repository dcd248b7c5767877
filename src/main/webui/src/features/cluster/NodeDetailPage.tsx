import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { isApiError } from '../../api/errors';
import type { ClusterNode, NodeDetail } from '../../api/types';
import { ResourceBar } from '../../components/common/ResourceBar';
import { ErrorState, LoadingState } from '../../components/common/States';
import { StatusBadge } from '../../components/common/StatusBadge';
import { card } from '../../components/common/ui';
import { formatDateTime } from '../../lib/time';
import { formatCores, formatGiB, formatGpuCount } from '../../lib/units';
import { NodeActions } from './NodeActions';
import { NodeHealthSection } from './NodeHealthSection';
import { ExclusiveBadge, HealthBadge } from './NodeMarks';
import { NodeConditionsTable, NodeEventsTable, NodeJobsTable, NodePodsTable } from './NodeDetailTables';
import { labelLines, taintText } from './nodeDetailText';
import { nodeStatus, nodeStatusTone } from './nodeStatus';
import { useNodeDetail } from './queries';

function BackToNodes() {
  const { t } = useTranslation();
  return (
    <Link to="/admin/nodes" data-testid="node-detail-back" className="text-sm text-indigo-700 hover:underline">
      ← {t('nodeDetail.back')}
    </Link>
  );
}

/** Ready or not, cordoned (by whom, why, when), taints and labels. */
function StatusCard({ node }: { node: ClusterNode }) {
  const { t, i18n } = useTranslation();
  const labels = labelLines(node.labels);
  return (
    <section data-testid="node-detail-status" className={card} aria-labelledby="node-status-heading">
      <h2 id="node-status-heading" className="mb-3 text-sm font-semibold text-slate-900">
        {t('nodeDetail.statusTitle')}
      </h2>
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-2 text-sm">
        <dt className="text-slate-500">{t('nodeDetail.ready')}</dt>
        <dd data-testid="node-detail-ready">{node.ready ? t('nodeDetail.yes') : t('nodeDetail.no')}</dd>
        <dt className="text-slate-500">{t('nodeDetail.schedulable')}</dt>
        <dd data-testid="node-detail-schedulable">{node.schedulable ? t('nodeDetail.yes') : t('nodeDetail.no')}</dd>
        {node.cordon && (
          <>
            <dt className="text-slate-500">{t('nodeDetail.cordon')}</dt>
            <dd data-testid="node-detail-cordon" className="text-amber-800">
              {node.cordon.by !== ''
                ? t('nodeDetail.cordonedBy', {
                    by: node.cordon.by,
                    reason: node.cordon.reason,
                    at: formatDateTime(node.cordon.at, i18n.language),
                  })
                : t('nodeAdmin.cordonedOutside')}
            </dd>
          </>
        )}
        <dt className="text-slate-500">{t('nodeDetail.exclusive')}</dt>
        <dd data-testid="node-detail-exclusive">
          {node.exclusive ? <ExclusiveBadge node={node} /> : <span className="text-slate-500">{t('nodeDetail.shared')}</span>}
        </dd>
        {node.health && (
          <>
            <dt className="text-slate-500">{t('nodeDetail.gpuHealth')}</dt>
            <dd>
              <HealthBadge node={node} />
            </dd>
          </>
        )}
        <dt className="text-slate-500">{t('nodeDetail.taints')}</dt>
        <dd data-testid="node-detail-taints" className="font-mono text-xs">
          {node.taints.length === 0 ? (
            <span className="font-sans text-slate-500">{t('nodeDetail.noTaints')}</span>
          ) : (
            node.taints.map(taintText).join(', ')
          )}
        </dd>
        <dt className="text-slate-500">{t('nodeDetail.labels')}</dt>
        <dd>
          {labels.length === 0 ? (
            <span className="text-slate-500">{t('nodeAdmin.noLabels')}</span>
          ) : (
            <ul data-testid="node-detail-labels" className="flex flex-wrap gap-1">
              {labels.map((l) => (
                <li key={l} className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-700">
                  {l}
                </li>
              ))}
            </ul>
          )}
        </dd>
      </dl>
    </section>
  );
}

function AllocationRow({ testId, label, text, used, total }: { testId: string; label: string; text: string; used: number; total: number }) {
  return (
    <div data-testid={testId} className="flex flex-col gap-1">
      <div className="flex justify-between gap-3 text-sm">
        <span className="text-slate-700">{label}</span>
        <span data-testid={`${testId}-text`} className="tabular-nums text-slate-600">
          {text}
        </span>
      </div>
      <ResourceBar used={used} total={total} label={label} />
    </div>
  );
}

/** What the pods bound to the node request against what it can allocate: accelerators, CPU and memory. */
function AllocationCard({ node }: { node: ClusterNode }) {
  const { t } = useTranslation();
  const acc = node.accelerator;
  return (
    <section data-testid="node-detail-allocation" className={card} aria-labelledby="node-allocation-heading">
      <h2 id="node-allocation-heading" className="mb-3 text-sm font-semibold text-slate-900">
        {t('nodeDetail.allocationTitle')}
      </h2>
      <div className="flex flex-col gap-4">
        {acc ? (
          <AllocationRow
            testId="node-detail-accelerators"
            label={acc.displayName}
            text={t('nodeDetail.devicesOf', { allocated: formatGpuCount(acc.allocated), total: formatGpuCount(acc.total) })}
            used={acc.allocated}
            total={acc.total}
          />
        ) : (
          <p className="text-sm text-slate-500">{t('nodes.cpuOnly')}</p>
        )}
        <AllocationRow
          testId="node-detail-cpu"
          label={t('nodeDetail.cpu')}
          text={t('nodeDetail.coresOf', { allocated: formatCores(node.cpu.allocatedMilli), total: formatCores(node.cpu.totalMilli) })}
          used={node.cpu.allocatedMilli}
          total={node.cpu.totalMilli}
        />
        <AllocationRow
          testId="node-detail-memory"
          label={t('nodeDetail.memory')}
          text={t('nodeDetail.gibOf', { allocated: formatGiB(node.memory.allocatedBytes), total: formatGiB(node.memory.totalBytes) })}
          used={node.memory.allocatedBytes}
          total={node.memory.totalBytes}
        />
        {node.uncovered.length > 0 && (
          <p data-testid="node-detail-uncovered" className="text-xs text-amber-700" title={t('nodes.uncoveredHint')}>
            {t('nodes.uncovered', { resources: node.uncovered.map((u) => `${u.resource} × ${u.count}`).join(', ') })}
          </p>
        )}
      </div>
    </section>
  );
}

function NodeDetailBody({ detail }: { detail: NodeDetail }) {
  const { t } = useTranslation();
  const { node } = detail;
  const status = nodeStatus(node);
  const accelerator = node.accelerator?.displayName ?? null;
  return (
    <div data-testid="node-detail" data-node={node.name} className="flex flex-col gap-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="flex flex-col gap-1">
          <BackToNodes />
          <div className="flex items-center gap-3">
            <h1 data-testid="page-title" className="font-mono text-2xl font-semibold text-slate-900">
              {node.name}
            </h1>
            <span data-testid="node-detail-state" data-status={status}>
              <StatusBadge tone={nodeStatusTone(status)} label={t(`status.${status}`)} value={status} />
            </span>
          </div>
          <p className="text-sm text-slate-500">{t('nodeDetail.subtitle')}</p>
        </div>
        <NodeActions node={node} />
      </div>
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <StatusCard node={node} />
        <AllocationCard node={node} />
      </div>
      <NodeHealthSection name={node.name} />
      <NodeJobsTable jobs={detail.jobs} />
      <NodePodsTable pods={detail.pods} accelerator={accelerator} />
      <NodeConditionsTable conditions={detail.conditions} />
      <NodeEventsTable events={detail.events} unavailable={detail.eventsUnavailable} />
    </div>
  );
}

/** One node for platform admins: its status, allocation, jobs, pods, conditions and events, with its actions. */
export function NodeDetailPage() {
  const { t } = useTranslation();
  const { name = '' } = useParams();
  const query = useNodeDetail(name);
  if (query.isPending) return <LoadingState />;
  if (query.data === undefined) {
    const status = isApiError(query.error) ? query.error.status : null;
    if (status === 404 || status === 403) {
      return (
        <div data-testid={status === 404 ? 'node-detail-missing' : 'node-detail-forbidden'} className="flex flex-col gap-3">
          <BackToNodes />
          <div role="alert" className="rounded-lg border border-slate-200 bg-white p-6 text-sm text-slate-700">
            <p className="font-semibold text-slate-900">{status === 404 ? t('nodeDetail.missing', { name }) : t('nodeDetail.forbidden')}</p>
            <p className="mt-1 text-slate-500">{status === 404 ? t('nodeDetail.missingHint') : t('nodeDetail.forbiddenHint')}</p>
          </div>
        </div>
      );
    }
    return (
      <div className="flex flex-col gap-3">
        <BackToNodes />
        <ErrorState title={t('nodeDetail.loadError', { name })} error={query.error} onRetry={() => void query.refetch()} />
      </div>
    );
  }
  return (
    <>
      {query.isError && (
        <div className="mb-4">
          <ErrorState title={t('nodeDetail.refreshError')} error={query.error} onRetry={() => void query.refetch()} />
        </div>
      )}
      <NodeDetailBody detail={query.data} />
    </>
  );
}
