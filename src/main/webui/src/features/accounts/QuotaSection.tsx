import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Account, QuotaLine } from '../../api/types';
import { EmptyState } from '../../components/common/States';
import { btnPrimary, btnSecondary, tableWrap, td, th } from '../../components/common/ui';
import { formatResourceMilli, unitKey } from '../../lib/units';
import { QuotaEditor } from './QuotaEditor';
import { quotaBar } from './quotaBar';
import { startBlockers } from './quotaEditor';

function QuotaBarView({ line }: { line: QuotaLine }) {
  const { t } = useTranslation();
  const bar = quotaBar(line);
  const fmt = (milli: number) => formatResourceMilli(line.resource, milli);
  return (
    <div className="flex min-w-56 flex-col gap-1">
      <div
        role="img"
        aria-label={t('quota.barLabel', {
          used: fmt(line.usedMilli),
          guaranteed: fmt(bar.effectiveGuaranteedMilli),
          max: fmt(bar.effectiveMaxMilli),
        })}
        className="relative h-3 w-full overflow-hidden rounded-full bg-slate-100 ring-1 ring-inset ring-slate-200"
      >
        {/* Band up to the configured max, then the granted extension. */}
        <div className="absolute inset-y-0 left-0 bg-slate-200" style={{ width: `${bar.maxPct}%` }} />
        {bar.grantedPct > 0 && (
          <div
            data-testid="quota-granted-band"
            className="absolute inset-y-0 bg-[repeating-linear-gradient(45deg,#a7f3d0_0,#a7f3d0_4px,#d1fae5_4px,#d1fae5_8px)]"
            style={{ left: `${bar.maxPct}%`, width: `${bar.grantedPct}%` }}
          />
        )}
        <div className={`absolute inset-y-0 left-0 ${bar.overMax ? 'bg-rose-500' : 'bg-indigo-500'}`} style={{ width: `${bar.ownPct}%` }} />
        {bar.borrowedPct > 0 && (
          <div
            data-testid="quota-borrowed-band"
            className="absolute inset-y-0 bg-amber-400"
            style={{ left: `${bar.ownPct}%`, width: `${bar.borrowedPct}%` }}
          />
        )}
        {bar.effectiveGuaranteedMilli > 0 && (
          <div aria-hidden="true" className="absolute inset-y-0 w-0.5 bg-slate-700" style={{ left: `calc(${bar.guaranteedPct}% - 1px)` }} />
        )}
      </div>
    </div>
  );
}

function QuotaLegend() {
  const { t } = useTranslation();
  const item = (cls: string, label: string) => (
    <span className="inline-flex items-center gap-1.5">
      <span aria-hidden="true" className={`inline-block h-2.5 w-4 rounded-sm ${cls}`} />
      {label}
    </span>
  );
  return (
    <p className="flex flex-wrap gap-4 text-xs text-slate-500">
      {item('bg-indigo-500', t('quota.legendUsed'))}
      {item('bg-amber-400', t('quota.legendBorrowed'))}
      {item('bg-slate-200', t('quota.legendMax'))}
      {item('bg-emerald-200', t('quota.legendGranted'))}
      <span className="inline-flex items-center gap-1.5">
        <span aria-hidden="true" className="inline-block h-3 w-0.5 bg-slate-700" />
        {t('quota.legendGuaranteed')}
      </span>
    </p>
  );
}

export function QuotaTable({ lines }: { lines: QuotaLine[] }) {
  const { t } = useTranslation();
  return (
    <div className={tableWrap}>
      <table className="min-w-full" data-testid="quota-table">
        <thead className="bg-slate-50">
          <tr>
            <th className={th}>{t('quota.resource')}</th>
            <th className={th}>{t('quota.usage')}</th>
            <th className={`${th} text-right`}>{t('quota.used')}</th>
            <th className={`${th} text-right`}>{t('quota.guaranteed')}</th>
            <th className={`${th} text-right`}>{t('quota.max')}</th>
            <th className={`${th} text-right`}>{t('quota.borrowed')}</th>
          </tr>
        </thead>
        <tbody>
          {lines.map((line) => {
            const fmt = (milli: number) => formatResourceMilli(line.resource, milli);
            const granted = line.grantedMilli > 0;
            return (
              <tr key={line.resource} data-testid="quota-row" data-resource={line.resource} className="border-t border-slate-100">
                <td className={td}>
                  <span className="block font-medium text-slate-800">{line.displayName || line.resource}</span>
                  <span className="block font-mono text-xs text-slate-500">
                    {line.resource} · {t(unitKey(line.resource))}
                  </span>
                </td>
                <td className={td}>
                  <QuotaBarView line={line} />
                </td>
                <td className={`${td} text-right tabular-nums`} data-testid="quota-used">
                  {fmt(line.usedMilli)}
                </td>
                <td className={`${td} text-right tabular-nums`}>
                  <span data-testid="quota-effective-guaranteed">{fmt(line.guaranteedMilli + line.grantedMilli)}</span>
                  {granted && (
                    <span className="block text-xs text-emerald-700">
                      {t('quota.plusGranted', { base: fmt(line.guaranteedMilli), granted: fmt(line.grantedMilli) })}
                    </span>
                  )}
                </td>
                <td className={`${td} text-right tabular-nums`}>
                  <span data-testid="quota-effective-max" className="font-semibold text-slate-900">
                    {fmt(line.maxMilli + line.grantedMilli)}
                  </span>
                  {granted && (
                    <span className="block text-xs text-emerald-700">
                      {t('quota.plusGranted', { base: fmt(line.maxMilli), granted: fmt(line.grantedMilli) })}
                    </span>
                  )}
                </td>
                <td className={`${td} text-right tabular-nums ${line.borrowedMilli > 0 ? 'font-medium text-amber-700' : ''}`}>
                  {fmt(line.borrowedMilli)}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** "No job can start here until …": the account has no cpu or no memory to give any job. */
export function StartBlockerNote({ lines, platformAdmin }: { lines: QuotaLine[]; platformAdmin: boolean }) {
  const { t } = useTranslation();
  const blockers = startBlockers(lines);
  if (blockers.length === 0) return null;
  const missing = blockers.map((c) => t(`quota.${c}`)).join(t('quotaEditor.and'));
  return (
    <p
      role="status"
      data-testid="quota-start-blocker"
      className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
    >
      {t('quotaEditor.noJobCanStart', { missing })}{' '}
      {platformAdmin ? t('quotaEditor.noJobCanStartAdmin') : t('quotaEditor.noJobCanStartMember')}
    </p>
  );
}

export function QuotaSection({
  account,
  platformAdmin,
  onRequestGrant,
}: {
  account: Account;
  platformAdmin: boolean;
  onRequestGrant: () => void;
}) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  return (
    <section aria-labelledby="quota-heading" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="quota-heading" className="text-lg font-semibold text-slate-800">
          {t('quota.title')}
        </h2>
        <div className="flex gap-2">
          <button type="button" data-testid="request-grant" className={btnSecondary} onClick={onRequestGrant}>
            {t('quota.requestMore')}
          </button>
          {platformAdmin && !editing && (
            <button type="button" data-testid="quota-edit-open" className={btnPrimary} onClick={() => setEditing(true)}>
              {t('quota.edit')}
            </button>
          )}
        </div>
      </div>
      {editing && <QuotaEditor account={account} onDone={() => setEditing(false)} />}
      <StartBlockerNote lines={account.quota} platformAdmin={platformAdmin} />
      {account.quota.length === 0 ? (
        <EmptyState title={t('quota.empty')} />
      ) : (
        <>
          <QuotaTable lines={account.quota} />
          <QuotaLegend />
        </>
      )}
    </section>
  );
}
