import { useState, type FormEvent } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AuditEntry, AuditFilter } from '../../api/types';
import { PageHeader } from '../../app/PageHeader';
import { Field, LoadMore, Tabs } from '../../components/common/Form';
import { DataTable } from '../../components/common/DataTable';
import { StatusBadge } from '../../components/common/StatusBadge';
import { btnPrimary, btnSecondary, inputClass } from '../../components/common/ui';
import { formatDateTime, localInputToIso } from '../../lib/time';
import { auditQuery, deniedQuery } from './queries';

interface FilterForm {
  actor: string;
  action: string;
  account: string;
  from: string;
  to: string;
}

const EMPTY: FilterForm = { actor: '', action: '', account: '', from: '', to: '' };

/** Filter form → query parameters: trimmed, empty ones dropped, times as ISO instants. */
function toAuditFilter(f: FilterForm): AuditFilter {
  const out: AuditFilter = {};
  if (f.actor.trim()) out.actor = f.actor.trim();
  if (f.action.trim()) out.action = f.action.trim();
  if (f.account.trim()) out.account = f.account.trim();
  const from = localInputToIso(f.from);
  const to = localInputToIso(f.to);
  if (from) out.from = from;
  if (to) out.to = to;
  return out;
}

function Change({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation();
  if (entry.before === null && entry.after === null) return <span className="text-slate-400">—</span>;
  return (
    <details className="text-xs">
      <summary className="cursor-pointer text-indigo-700">{t('audit.showChange')}</summary>
      <div className="mt-1 grid gap-2 sm:grid-cols-2">
        <div>
          <p className="font-medium text-slate-500">{t('audit.before')}</p>
          <pre className="max-w-80 overflow-auto rounded bg-slate-50 p-2">{entry.before ? JSON.stringify(entry.before, null, 2) : '—'}</pre>
        </div>
        <div>
          <p className="font-medium text-slate-500">{t('audit.after')}</p>
          <pre className="max-w-80 overflow-auto rounded bg-slate-50 p-2">{entry.after ? JSON.stringify(entry.after, null, 2) : '—'}</pre>
        </div>
      </div>
    </details>
  );
}

function AuditLog() {
  const { t, i18n } = useTranslation();
  const [form, setForm] = useState<FilterForm>(EMPTY);
  const [filter, setFilter] = useState<AuditFilter>({});
  const query = useInfiniteQuery(auditQuery(filter));
  const items = query.data?.pages.flatMap((p) => p.items) ?? [];
  const set = (key: keyof FilterForm) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setFilter(toAuditFilter(form));
  };
  return (
    <div className="flex flex-col gap-4">
      <form onSubmit={submit} className="grid gap-3 sm:grid-cols-3 lg:grid-cols-6" aria-label={t('audit.filters')}>
        <Field label={t('audit.actor')}>
          <input data-testid="audit-actor" className={inputClass} value={form.actor} onChange={set('actor')} />
        </Field>
        <Field label={t('audit.action')}>
          <input data-testid="audit-action" className={inputClass} value={form.action} onChange={set('action')} />
        </Field>
        <Field label={t('audit.account')}>
          <input data-testid="audit-account" className={inputClass} value={form.account} onChange={set('account')} />
        </Field>
        <Field label={t('audit.from')}>
          <input data-testid="audit-from" type="datetime-local" className={inputClass} value={form.from} onChange={set('from')} />
        </Field>
        <Field label={t('audit.to')}>
          <input data-testid="audit-to" type="datetime-local" className={inputClass} value={form.to} onChange={set('to')} />
        </Field>
        <div className="flex items-end gap-2">
          <button type="submit" data-testid="audit-apply" className={btnPrimary}>
            {t('audit.apply')}
          </button>
          <button
            type="button"
            className={btnSecondary}
            onClick={() => {
              setForm(EMPTY);
              setFilter({});
            }}
          >
            {t('common.reset')}
          </button>
        </div>
      </form>
      <DataTable
        query={query}
        rows={items}
        columns={[
          { id: 'at', header: t('audit.at'), cell: (e) => formatDateTime(e.at, i18n.language), className: 'whitespace-nowrap' },
          { id: 'actor', header: t('audit.actor'), cell: (e) => e.actor, className: 'font-mono' },
          { id: 'account', header: t('audit.account'), cell: (e) => e.account ?? '—', className: 'font-mono' },
          { id: 'action', header: t('audit.action'), cell: (e) => e.action, className: 'font-mono' },
          {
            id: 'target',
            header: t('audit.target'),
            cell: (e) => (
              <>
                <span className="text-slate-500">{e.targetType}</span> <span className="font-mono">{e.targetId}</span>
              </>
            ),
          },
          {
            id: 'result',
            header: t('audit.result'),
            cell: (e) => <StatusBadge tone={e.result === 'ok' ? 'success' : 'danger'} label={e.result} value={e.result} />,
          },
          { id: 'client', header: t('audit.client'), cell: (e) => e.clientAddress, className: 'font-mono text-xs' },
          { id: 'change', header: t('audit.change'), cell: (e) => <Change entry={e} /> },
        ]}
        rowKey={(e) => e.id}
        rowProps={() => ({ 'data-testid': 'audit-row', className: 'align-top' })}
        empty={{ title: t('audit.empty') }}
        errorTitle={t('audit.loadError')}
        testId="audit-table"
        footer={<LoadMore hasMore={query.hasNextPage} loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()} />}
      />
    </div>
  );
}

function DeniedLog() {
  const { t, i18n } = useTranslation();
  const query = useInfiniteQuery(deniedQuery());
  const items = query.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <div className="flex flex-col gap-4">
      <DataTable
        query={query}
        rows={items}
        columns={[
          { id: 'at', header: t('audit.at'), cell: (e) => formatDateTime(e.at, i18n.language), className: 'whitespace-nowrap' },
          { id: 'actor', header: t('audit.actor'), cell: (e) => e.actor ?? t('audit.anonymous'), className: 'font-mono' },
          { id: 'request', header: t('audit.request'), cell: (e) => `${e.method} ${e.path}`, className: 'font-mono text-xs' },
          { id: 'code', header: t('audit.code'), cell: (e) => e.code, className: 'font-mono' },
          { id: 'client', header: t('audit.client'), cell: (e) => e.clientAddress, className: 'font-mono text-xs' },
        ]}
        rowKey={(e) => e.id}
        rowProps={() => ({ 'data-testid': 'denied-row' })}
        empty={{ title: t('audit.deniedEmpty') }}
        errorTitle={t('audit.loadError')}
        testId="denied-table"
        footer={<LoadMore hasMore={query.hasNextPage} loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()} />}
      />
    </div>
  );
}

export function AuditPage() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<'log' | 'denied'>('log');
  return (
    <div className="flex flex-col gap-6">
      <PageHeader title={t('audit.title')} subtitle={t('audit.subtitle')} />
      <Tabs
        label={t('audit.title')}
        testIdPrefix="audit-tab"
        value={tab}
        onChange={setTab}
        tabs={[
          { value: 'log', label: t('audit.logTab') },
          { value: 'denied', label: t('audit.deniedTab') },
        ]}
      />
      {tab === 'log' ? <AuditLog /> : <DeniedLog />}
    </div>
  );
}
