import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { clearNodeHealth } from '../../api/cluster';
import { fieldError } from '../../api/errors';
import type { GpuHealthEvidence, GpuHealth } from '../../api/types';
import { DataTable, type Column, type TableQuery } from '../../components/common/DataTable';
import { Dialog } from '../../components/common/Dialog';
import { describeError } from '../../components/common/errorText';
import { ErrorState, LoadingState } from '../../components/common/States';
import { StatusBadge, type BadgeTone } from '../../components/common/StatusBadge';
import { btnPrimary, btnSecondary, btnSmall, card, inputClass, inputInvalid, labelText } from '../../components/common/ui';
import { formatDateTime } from '../../lib/time';
import { ReasonList } from '../jobs/JobParts';
import { clusterKeys, useNodeHealth } from './queries';

/** The section shows the health's loading and error states; its evidence table shows a health already read. */
const READ: TableQuery = { isPending: false, isError: false, error: null, refetch: () => undefined };

/** The longest reason the server takes. */
const MAX_REASON = 256;

const TONES: Record<GpuHealth['state'], BadgeTone> = { HEALTHY: 'success', SUSPECT: 'warning', QUARANTINED: 'danger' };

/** The evidence behind a node's GPU health: when, what kind, which card, the value (XID code or errors), the job. */
function EvidenceTable({ evidence }: { evidence: readonly GpuHealthEvidence[] }) {
  const { t, i18n } = useTranslation();
  const columns: Column<GpuHealthEvidence>[] = [
    { id: 'at', header: t('nodeHealth.evidence.at'), cell: (e) => formatDateTime(e.at, i18n.language) },
    { id: 'kind', header: t('nodeHealth.evidence.kind'), cell: (e) => t(`nodeHealth.kind.${e.kind}`, { defaultValue: e.kind }) },
    {
      id: 'gpu',
      header: t('nodeHealth.evidence.gpu'),
      className: 'tabular-nums',
      cell: (e) => (e.gpu === null ? '—' : t('nodeHealth.evidence.card', { gpu: e.gpu })),
    },
    {
      id: 'value',
      header: t('nodeHealth.evidence.value'),
      className: 'tabular-nums',
      cell: (e) =>
        e.kind === 'XID'
          ? t('nodeHealth.evidence.xid', { xid: e.value })
          : e.kind === 'ECC_DBE'
            ? t('nodeHealth.evidence.errors', { count: e.value })
            : '—',
    },
    {
      id: 'job',
      header: t('nodeHealth.evidence.job'),
      className: 'font-mono text-xs',
      cell: (e) =>
        e.job === null ? (
          '—'
        ) : (
          <Link
            to={`/jobs/${encodeURIComponent(e.job)}`}
            data-testid="node-evidence-job"
            className="font-medium text-indigo-700 hover:underline"
          >
            {e.job}
          </Link>
        ),
    },
  ];
  return (
    <DataTable
      query={READ}
      rows={evidence}
      columns={columns}
      rowKey={(e) => `${e.at}-${e.kind}-${e.gpu ?? ''}-${e.job ?? ''}-${e.value}`}
      rowProps={(e) => ({ 'data-testid': 'node-evidence', 'data-kind': e.kind })}
      empty={{ title: t('nodeHealth.noEvidence') }}
      errorTitle={t('nodeDetail.refreshError')}
      testId="node-evidence-table"
    />
  );
}

function HealthBody({ health }: { health: GpuHealth }) {
  const { t, i18n } = useTranslation();
  const [clearing, setClearing] = useState(false);
  const time = (iso: string | null) => formatDateTime(iso, i18n.language);
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex flex-col gap-1">
          <span data-testid="node-health-state" data-state={health.state}>
            <StatusBadge tone={TONES[health.state]} label={t(`nodeHealth.state.${health.state}`)} value={health.state} />
          </span>
          <p data-testid="node-health-explain" className="max-w-2xl text-sm text-slate-600">
            {t(`nodeHealth.explain.${health.state}`)}
          </p>
        </div>
        {health.state !== 'HEALTHY' && (
          <button type="button" data-testid="node-health-clear" className={btnSmall} onClick={() => setClearing(true)}>
            {t('nodeHealth.clear')}
          </button>
        )}
      </div>
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-2 text-sm">
        {health.since && (
          <>
            <dt className="text-slate-500">{t('nodeHealth.since')}</dt>
            <dd data-testid="node-health-since">{time(health.since)}</dd>
          </>
        )}
        {health.reasons.length > 0 && (
          <>
            <dt className="text-slate-500">{t('nodeHealth.reasons')}</dt>
            <dd data-testid="node-health-reasons">
              <ReasonList reasons={health.reasons} testId="node-health-reason" />
            </dd>
          </>
        )}
        <dt className="text-slate-500">{t('nodeHealth.lastCleared')}</dt>
        <dd data-testid="node-health-cleared">
          {health.clearedAt
            ? t('nodeHealth.clearedBy', { by: health.clearedBy ?? '—', at: time(health.clearedAt) })
            : t('nodeHealth.neverCleared')}
        </dd>
      </dl>
      <div className="flex flex-col gap-2">
        <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">{t('nodeHealth.evidenceTitle')}</h3>
        <p className="text-xs text-slate-500">{t('nodeHealth.evidenceHint')}</p>
        <EvidenceTable evidence={health.evidence} />
      </div>
      {clearing && <ClearDialog health={health} onClose={() => setClearing(false)} />}
    </div>
  );
}

/**
 * A node's GPU health for platform admins: suspect or quarantined, since when, why (the reasons with their
 * numbers), the last clear, the evidence, and a clear with a reason.
 */
export function NodeHealthSection({ name }: { name: string }) {
  const { t } = useTranslation();
  const query = useNodeHealth(name);
  return (
    <section data-testid="node-health-section" className={card} aria-labelledby="node-health-heading">
      <h2 id="node-health-heading" className="mb-3 text-sm font-semibold text-slate-900">
        {t('nodeHealth.title')}
      </h2>
      {query.isPending ? (
        <LoadingState />
      ) : query.data === undefined ? (
        <div data-testid="node-health-error">
          <ErrorState title={t('nodeHealth.loadError')} error={query.error} onRetry={() => void query.refetch()} />
        </div>
      ) : (
        <HealthBody health={query.data} />
      )}
    </section>
  );
}

/** Asks why the quarantine is lifted (required), then clears it; the node and its list are read again. */
function ClearDialog({ health, onClose }: { health: GpuHealth; onClose: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [reason, setReason] = useState('');
  const mutation = useMutation({
    mutationFn: () => clearNodeHealth(health.node, reason.trim()),
    onSuccess: (h) => {
      client.setQueryData(clusterKeys.health(health.node), h);
      void client.invalidateQueries({ queryKey: clusterKeys.nodes() });
      void client.invalidateQueries({ queryKey: clusterKeys.node(health.node) });
      onClose();
    },
  });
  const length = reason.trim().length;
  // Said while typing: the server refuses a longer reason (it is never cut).
  const tooLong = length > MAX_REASON ? t('units.tooLong', { max: MAX_REASON, count: length }) : undefined;
  const reasonError = tooLong ?? fieldError(mutation.error, 'reason');
  return (
    <Dialog title={t('nodeHealth.clearTitle', { node: health.node })} onClose={onClose} testId="node-health-clear-dialog">
      <form
        className="flex flex-col gap-3 text-left"
        onSubmit={(e) => {
          e.preventDefault();
          if (length > 0 && !tooLong) mutation.mutate();
        }}
      >
        <p className="text-sm text-slate-600">
          {t(health.state === 'QUARANTINED' ? 'nodeHealth.clearExplainQuarantined' : 'nodeHealth.clearExplain')}
        </p>
        <label>
          <span className={labelText}>{t('nodeAdmin.reason')}</span>
          <textarea
            data-testid="node-health-clear-reason"
            className={`${inputClass} ${reasonError ? inputInvalid : ''}`}
            aria-invalid={reasonError !== undefined}
            rows={2}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            placeholder={t('nodeHealth.clearPlaceholder')}
          />
          {reasonError && (
            <span role="alert" data-testid="node-health-clear-field-error" className="mt-1 block text-xs text-rose-700">
              {reasonError}
            </span>
          )}
        </label>
        {mutation.isError && (
          <p role="alert" data-testid="node-health-clear-error" className="text-sm text-rose-700">
            {describeError(mutation.error, t('nodeAdmin.failed'))}
          </p>
        )}
        <div className="flex justify-end gap-2">
          <button type="button" className={btnSecondary} onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button
            type="submit"
            data-testid="node-health-clear-submit"
            className={btnPrimary}
            disabled={length === 0 || tooLong !== undefined || mutation.isPending}
          >
            {mutation.isPending ? t('nodeAdmin.working') : t('nodeHealth.clearConfirm')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
