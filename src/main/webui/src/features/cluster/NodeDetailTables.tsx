import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { NodeCondition, NodeJob, NodeKubeEvent, NodePod } from '../../api/types';
import { DataTable, type Column, type TableQuery } from '../../components/common/DataTable';
import { StatusBadge } from '../../components/common/StatusBadge';
import { formatDateTime } from '../../lib/time';
import { formatBytes, formatCores, formatGpuCount } from '../../lib/units';
import { useNow } from '../../lib/useNow';
import { JobStateBadge } from '../jobs/JobStateBadge';
import { podPhaseTone } from '../jobs/jobState';
import { ageText, conditionTone, eventTone } from './nodeDetailText';

/** The page shows the detail's loading and error states; its tables show parts of a detail already read. */
const READ: TableQuery = { isPending: false, isError: false, error: null, refetch: () => undefined };

const linkClass = 'font-medium text-indigo-700 hover:underline';

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3">
      <h2 id={id} className="text-sm font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** The Crater jobs with pods on the node: id (to the job's page), name, state, owner, account, pods there. */
export function NodeJobsTable({ jobs }: { jobs: readonly NodeJob[] }) {
  const { t } = useTranslation();
  const columns: Column<NodeJob>[] = [
    {
      id: 'id',
      header: t('nodeDetail.jobs.id'),
      className: 'font-mono text-xs',
      cell: (j) => (
        <Link to={`/jobs/${encodeURIComponent(j.id)}`} data-testid="node-job-link" className={linkClass}>
          {j.id}
        </Link>
      ),
    },
    { id: 'name', header: t('nodeDetail.jobs.name'), cell: (j) => j.name },
    { id: 'state', header: t('nodeDetail.jobs.state'), cell: (j) => <JobStateBadge state={j.state} /> },
    { id: 'owner', header: t('nodeDetail.jobs.owner'), cell: (j) => j.owner },
    { id: 'account', header: t('nodeDetail.jobs.account'), cell: (j) => j.account },
    { id: 'pods', header: t('nodeDetail.jobs.pods'), className: 'tabular-nums', cell: (j) => j.pods },
  ];
  return (
    <Section id="node-jobs-heading" title={t('nodeDetail.jobs.title')}>
      <DataTable
        query={READ}
        rows={jobs}
        columns={columns}
        rowKey={(j) => j.id}
        rowProps={(j) => ({ 'data-testid': 'node-job', 'data-id': j.id })}
        empty={{ title: t('nodeDetail.jobs.empty') }}
        errorTitle={t('nodeDetail.refreshError')}
        testId="node-jobs"
      />
    </Section>
  );
}

/** The pods bound to the node, in every namespace, with their requests in explicit units and their age. */
export function NodePodsTable({ pods, accelerator }: { pods: readonly NodePod[]; accelerator: string | null }) {
  const { t } = useTranslation();
  const now = useNow();
  const columns: Column<NodePod>[] = [
    { id: 'namespace', header: t('nodeDetail.pods.namespace'), className: 'font-mono text-xs', cell: (p) => p.namespace },
    { id: 'name', header: t('nodeDetail.pods.name'), className: 'font-mono text-xs', cell: (p) => p.name },
    {
      id: 'phase',
      header: t('nodeDetail.pods.phase'),
      cell: (p) => (p.phase === null ? '—' : <StatusBadge tone={podPhaseTone(p.phase)} label={p.phase} value={p.phase} />),
    },
    {
      id: 'job',
      header: t('nodeDetail.pods.job'),
      className: 'font-mono text-xs',
      cell: (p) =>
        p.job === null ? (
          <span className="font-sans text-slate-400">{t('nodeDetail.pods.noJob')}</span>
        ) : (
          <Link to={`/jobs/${encodeURIComponent(p.job)}`} data-testid="node-pod-job" className={linkClass}>
            {p.job}
          </Link>
        ),
    },
    {
      id: 'cpu',
      header: t('nodeDetail.pods.cpu'),
      className: 'tabular-nums whitespace-nowrap',
      testId: 'node-pod-cpu',
      cell: (p) => t('nodeDetail.pods.cores', { cores: formatCores(p.cpuMilli) }),
    },
    {
      id: 'memory',
      header: t('nodeDetail.pods.memory'),
      className: 'tabular-nums whitespace-nowrap',
      testId: 'node-pod-memory',
      cell: (p) => formatBytes(p.memoryBytes),
    },
    {
      id: 'accelerators',
      header: t('nodeDetail.pods.accelerators'),
      className: 'tabular-nums whitespace-nowrap',
      testId: 'node-pod-accelerators',
      cell: (p) =>
        p.accelerators > 0 && accelerator !== null
          ? t('nodeDetail.pods.devices', { amount: formatGpuCount(p.accelerators), model: accelerator })
          : '—',
    },
    { id: 'age', header: t('nodeDetail.pods.age'), className: 'tabular-nums whitespace-nowrap', cell: (p) => ageText(p.createdAt, now) },
  ];
  return (
    <Section id="node-pods-heading" title={t('nodeDetail.pods.title', { count: pods.length })}>
      <DataTable
        query={READ}
        rows={pods}
        columns={columns}
        rowKey={(p) => `${p.namespace}/${p.name}`}
        rowProps={(p) => ({ 'data-testid': 'node-pod', 'data-name': p.name, 'data-namespace': p.namespace })}
        empty={{ title: t('nodeDetail.pods.empty') }}
        errorTitle={t('nodeDetail.refreshError')}
        testId="node-pods"
      />
    </Section>
  );
}

/** The node's conditions as the kubelet reports them. */
export function NodeConditionsTable({ conditions }: { conditions: readonly NodeCondition[] }) {
  const { t, i18n } = useTranslation();
  const columns: Column<NodeCondition>[] = [
    { id: 'type', header: t('nodeDetail.conditions.type'), className: 'font-medium', cell: (c) => c.type },
    {
      id: 'status',
      header: t('nodeDetail.conditions.status'),
      cell: (c) => <StatusBadge tone={conditionTone(c)} label={c.status} value={c.status} />,
    },
    { id: 'reason', header: t('nodeDetail.conditions.reason'), cell: (c) => c.reason ?? '—' },
    { id: 'message', header: t('nodeDetail.conditions.message'), className: 'text-xs', cell: (c) => c.message ?? '—' },
    {
      id: 'since',
      header: t('nodeDetail.conditions.since'),
      className: 'whitespace-nowrap',
      cell: (c) => formatDateTime(c.lastTransitionTime, i18n.language),
    },
  ];
  return (
    <Section id="node-conditions-heading" title={t('nodeDetail.conditions.title')}>
      <DataTable
        query={READ}
        rows={conditions}
        columns={columns}
        rowKey={(c) => c.type}
        rowProps={(c) => ({ 'data-testid': 'node-condition', 'data-type': c.type, 'data-status': c.status })}
        empty={{ title: t('nodeDetail.conditions.empty') }}
        errorTitle={t('nodeDetail.refreshError')}
        testId="node-conditions"
      />
    </Section>
  );
}

/** The cluster's events about the node, newest first; a notice when they could not be read. */
export function NodeEventsTable({ events, unavailable }: { events: readonly NodeKubeEvent[]; unavailable: string | null }) {
  const { t, i18n } = useTranslation();
  const now = useNow();
  // Two events may read alike: a row is keyed by its place in the list, which the server orders newest first.
  const rows = events.map((e, index) => ({ ...e, index }));
  const columns: Column<NodeKubeEvent>[] = [
    {
      id: 'type',
      header: t('nodeDetail.events.type'),
      cell: (e) => (e.type === null ? '—' : <StatusBadge tone={eventTone(e.type)} label={e.type} value={e.type} />),
    },
    { id: 'reason', header: t('nodeDetail.events.reason'), className: 'font-medium', cell: (e) => e.reason ?? '—' },
    { id: 'message', header: t('nodeDetail.events.message'), className: 'text-xs', cell: (e) => e.message ?? '—' },
    {
      id: 'count',
      header: t('nodeDetail.events.count'),
      className: 'tabular-nums',
      testId: 'node-event-count',
      cell: (e) => t('nodeDetail.events.times', { count: e.count }),
    },
    {
      id: 'lastSeen',
      header: t('nodeDetail.events.lastSeen'),
      className: 'whitespace-nowrap',
      cell: (e) =>
        e.lastSeen === null ? (
          '—'
        ) : (
          <span title={formatDateTime(e.lastSeen, i18n.language)}>{t('nodeDetail.events.ago', { age: ageText(e.lastSeen, now) })}</span>
        ),
    },
    { id: 'source', header: t('nodeDetail.events.source'), className: 'font-mono text-xs', cell: (e) => e.source ?? '—' },
  ];
  return (
    <Section id="node-events-heading" title={t('nodeDetail.events.title')}>
      {unavailable !== null ? (
        <p
          role="status"
          data-testid="node-events-unavailable"
          className="rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm text-amber-800"
        >
          {t('nodeDetail.events.unavailable', { why: unavailable })}
        </p>
      ) : (
        <DataTable
          query={READ}
          rows={rows}
          columns={columns}
          rowKey={(e) => String(e.index)}
          rowProps={(e) => ({ 'data-testid': 'node-event', 'data-type': e.type ?? '', 'data-reason': e.reason ?? '' })}
          empty={{ title: t('nodeDetail.events.empty') }}
          errorTitle={t('nodeDetail.refreshError')}
          testId="node-events"
        />
      )}
    </Section>
  );
}
