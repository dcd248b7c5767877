import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ClusterNode } from '../../api/types';
import { ResourceBar } from '../../components/common/ResourceBar';
import { StatusBadge } from '../../components/common/StatusBadge';
import { formatCoresPair, formatGiBPair, formatGpuPair } from '../../lib/units';
import { ExclusiveBadge, HealthBadge } from './NodeMarks';
import { nodeStatus, nodeStatusTone } from './nodeStatus';

const byName = new Intl.Collator('en', { numeric: true });

function sortNodes(items: ClusterNode[]): ClusterNode[] {
  return items.slice().sort((a, b) => byName.compare(a.name, b.name));
}

function NodeRow({ node, actions }: { node: ClusterNode; actions?: (node: ClusterNode) => ReactNode }) {
  const { t } = useTranslation();
  const status = nodeStatus(node);
  const acc = node.accelerator;
  return (
    <tr data-testid="node-row" data-node={node.name} className="border-t border-slate-100 hover:bg-slate-50">
      <td className="px-4 py-3 font-mono text-sm text-slate-900">
        <Link to={`/admin/nodes/${encodeURIComponent(node.name)}`} data-testid="node-link" className="text-indigo-700 hover:underline">
          {node.name}
        </Link>
      </td>
      <td className="px-4 py-3">
        <div className="flex flex-wrap items-center gap-1">
          <StatusBadge tone={nodeStatusTone(status)} label={t(`status.${status}`)} value={status} />
          <ExclusiveBadge node={node} />
        </div>
        {node.health && (
          <div className="mt-1">
            <HealthBadge node={node} compact />
          </div>
        )}
        {node.cordon && (
          <p data-testid="node-cordon-reason" className="mt-1 max-w-56 text-xs text-amber-700">
            {node.cordon.by !== ''
              ? t('nodeAdmin.cordonedBy', { by: node.cordon.by, reason: node.cordon.reason })
              : t('nodeAdmin.cordonedOutside')}
          </p>
        )}
        {node.taints.length > 0 && (
          <p data-testid="node-taints" className="mt-1 font-mono text-xs text-slate-500">
            {node.taints.map((x) => `${x.key}${x.value !== '' ? `=${x.value}` : ''}:${x.effect}`).join(', ')}
          </p>
        )}
      </td>
      <td className="px-4 py-3 text-sm">
        {acc ? (
          <div className="flex min-w-40 flex-col gap-1">
            <div className="flex justify-between gap-3">
              <span className="text-slate-700" title={acc.model}>
                {acc.displayName}
              </span>
              <span className="tabular-nums text-slate-600">{formatGpuPair(acc.allocated, acc.total)}</span>
            </div>
            <ResourceBar size="sm" used={acc.allocated} total={acc.total} label={acc.displayName} />
          </div>
        ) : (
          <span className="text-slate-400">{t('nodes.cpuOnly')}</span>
        )}
        {node.uncovered.length > 0 && (
          <p data-testid="node-uncovered" className="mt-1 text-xs text-amber-700" title={t('nodes.uncoveredHint')}>
            {t('nodes.uncovered', { resources: node.uncovered.map((u) => `${u.resource} × ${u.count}`).join(', ') })}
          </p>
        )}
      </td>
      <td className="px-4 py-3 text-sm tabular-nums text-slate-700">{formatCoresPair(node.cpu.allocatedMilli, node.cpu.totalMilli)}</td>
      <td className="px-4 py-3 text-sm tabular-nums text-slate-700">{formatGiBPair(node.memory.allocatedBytes, node.memory.totalBytes)}</td>
      <td className="px-4 py-3 text-right text-sm tabular-nums text-slate-700">{node.pods}</td>
      {actions && <td className="px-4 py-3 text-right">{actions(node)}</td>}
    </tr>
  );
}

/** The nodes, by name; {@code actions} renders a last column of per-node actions (platform admins). */
export function NodeTable({ items, actions }: { items: ClusterNode[]; actions?: (node: ClusterNode) => ReactNode }) {
  const { t } = useTranslation();
  const sorted = useMemo(() => sortNodes(items), [items]);
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
      <table data-testid="node-table" className="min-w-full text-left">
        <thead className="bg-slate-50 text-xs font-medium text-slate-500">
          <tr>
            <th scope="col" className="px-4 py-2.5">
              {t('nodes.name')}
            </th>
            <th scope="col" className="px-4 py-2.5">
              {t('nodes.status')}
            </th>
            <th scope="col" className="px-4 py-2.5">
              {t('nodes.accelerator')}
            </th>
            <th scope="col" className="px-4 py-2.5">
              {t('nodes.cpu')}
            </th>
            <th scope="col" className="px-4 py-2.5">
              {t('nodes.memory')}
            </th>
            <th scope="col" className="px-4 py-2.5 text-right">
              {t('nodes.pods')}
            </th>
            {actions && (
              <th scope="col" className="px-4 py-2.5 text-right">
                {t('nodeAdmin.actions')}
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {sorted.map((node) => (
            <NodeRow key={node.name} node={node} actions={actions} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
