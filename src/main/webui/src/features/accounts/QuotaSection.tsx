import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { putQuota } from '../../api/accounts';
import { fieldError } from '../../api/errors';
import type { Account, QuotaItem, QuotaLine } from '../../api/types';
import { FormError } from '../../components/common/Form';
import { EmptyState } from '../../components/common/States';
import { btnPrimary, btnSecondary, btnSmall, tableWrap, td, th } from '../../components/common/ui';
import { formatResourceMilli, resourceKind, type UnitProblem } from '../../lib/units';
import { QuantityInput, unitProblemText } from '../../components/common/QuantityInput';
import { quotaResourceKeys, useAcceleratorModels } from '../catalog/queries';
import { accountKeys } from './queries';
import { quotaBar } from './quotaBar';
import { parseQuotaAmount, quotaItems, quotaRowsFrom, validateQuotaRows } from './quotaRows';

/** i18n key of a resource's display unit. */
export function unitKey(resource: string): string {
  return `units.${resourceKind(resource)}`;
}

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
        <div
          className={`absolute inset-y-0 left-0 ${bar.overMax ? 'bg-rose-500' : 'bg-indigo-500'}`}
          style={{ width: `${bar.ownPct}%` }}
        />
        {bar.borrowedPct > 0 && (
          <div
            data-testid="quota-borrowed-band"
            className="absolute inset-y-0 bg-amber-400"
            style={{ left: `${bar.ownPct}%`, width: `${bar.borrowedPct}%` }}
          />
        )}
        {bar.effectiveGuaranteedMilli > 0 && (
          <div
            aria-hidden="true"
            className="absolute inset-y-0 w-0.5 bg-slate-700"
            style={{ left: `calc(${bar.guaranteedPct}% - 1px)` }}
          />
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

function QuotaEditor({ account, onDone }: { account: Account; onDone: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const models = useAcceleratorModels();
  const [rows, setRows] = useState<QuotaItem[]>(() => quotaRowsFrom(account.quota));
  const [localErrors, setLocalErrors] = useState<Record<string, UnitProblem>>({});
  const [adding, setAdding] = useState('');
  const mutation = useMutation({
    mutationFn: (items: QuotaItem[]) => putQuota(account.slug, items),
    onSuccess: (updated) => {
      queryClient.setQueryData(accountKeys.detail(account.slug), updated);
      void queryClient.invalidateQueries({ queryKey: accountKeys.all });
      onDone();
    },
  });

  const names = new Map<string, string>();
  for (const m of models.data?.items ?? []) names.set(m.key, m.displayName);
  for (const l of account.quota) names.set(l.resource, l.displayName);
  const label = (key: string) =>
    key === 'cpu' ? t('quota.cpu') : key === 'memory' ? t('quota.memory') : (names.get(key) ?? key);
  const available = quotaResourceKeys(models.data?.items ?? []).filter((k) => !rows.some((r) => r.resource === k));

  const update = (i: number, patch: Partial<QuotaItem>) => {
    setRows((old) => old.map((r, j) => (j === i ? { ...r, ...patch } : r)));
    // An edited row is checked again on save; until then its old messages would mislead.
    setLocalErrors((old) => Object.fromEntries(Object.entries(old).filter(([k]) => !k.startsWith(`items[${i}].`))));
  };

  const save = () => {
    const errors = validateQuotaRows(rows);
    setLocalErrors(errors);
    if (Object.keys(errors).length > 0) return;
    mutation.mutate(quotaItems(rows));
  };

  const errorFor = (path: string) => {
    const local = localErrors[path];
    return local ? unitProblemText(t, local) : fieldError(mutation.error, path);
  };
  const unitOf = (resource: string) => (resourceKind(resource) === 'memory' ? undefined : unitKey(resource));

  return (
    <div data-testid="quota-editor" className="flex flex-col gap-3 rounded-xl border border-indigo-200 bg-indigo-50/40 p-4">
      <h3 className="text-sm font-semibold text-slate-800">{t('quota.editTitle')}</h3>
      {rows.length === 0 && <p className="text-sm text-slate-500">{t('quota.editEmpty')}</p>}
      {rows.length > 0 && (
        <table className="min-w-full">
          <thead>
            <tr>
              <th className={th}>{t('quota.resource')}</th>
              <th className={th}>{t('quota.guaranteed')}</th>
              <th className={th}>{t('quota.max')}</th>
              <th className={th} />
            </tr>
          </thead>
          <tbody>
            {rows.map((row, i) => {
              const gErr = errorFor(`items[${i}].guaranteed`);
              const mErr = errorFor(`items[${i}].max`);
              const rErr = errorFor(`items[${i}].resource`);
              return (
                <tr key={row.resource} data-testid="quota-edit-row" data-resource={row.resource}>
                  <td className="px-4 py-1.5 align-top text-sm">
                    <span className="block font-medium">{label(row.resource)}</span>
                    <span className="block font-mono text-xs text-slate-500">
                      {row.resource} · {t(unitKey(row.resource))}
                    </span>
                    {rErr && <span role="alert" className="block text-xs text-rose-700">{rErr}</span>}
                  </td>
                  <td className="px-4 py-1.5 align-top">
                    <QuantityInput
                      testId={`quota-guaranteed-${row.resource}`}
                      aria-label={`${label(row.resource)} ${t('quota.guaranteed')} (${t(unitKey(row.resource))})`}
                      value={row.guaranteed}
                      parse={(text) => parseQuotaAmount(row.resource, text)}
                      unitKey={unitOf(row.resource)}
                      error={gErr}
                      onChange={(text) => update(i, { guaranteed: text })}
                    />
                  </td>
                  <td className="px-4 py-1.5 align-top">
                    <QuantityInput
                      testId={`quota-max-${row.resource}`}
                      aria-label={`${label(row.resource)} ${t('quota.max')} (${t(unitKey(row.resource))})`}
                      value={row.max}
                      parse={(text) => parseQuotaAmount(row.resource, text)}
                      unitKey={unitOf(row.resource)}
                      error={mErr}
                      onChange={(text) => update(i, { max: text })}
                    />
                  </td>
                  <td className="px-4 py-1.5 text-right align-top">
                    <button
                      type="button"
                      data-testid={`quota-remove-${row.resource}`}
                      className={btnSmall}
                      onClick={() => setRows((old) => old.filter((_, j) => j !== i))}
                    >
                      {t('common.remove')}
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <div className="flex flex-wrap items-end gap-2">
        <label className="text-sm">
          <span className="sr-only">{t('quota.addResource')}</span>
          <select
            data-testid="quota-add-resource"
            aria-label={t('quota.addResource')}
            className="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm"
            value={adding}
            onChange={(e) => setAdding(e.target.value)}
          >
            <option value="">{t('quota.chooseResource')}</option>
            {available.map((k) => (
              <option key={k} value={k}>
                {label(k)} ({k})
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          data-testid="quota-add"
          className={btnSecondary}
          disabled={adding === ''}
          onClick={() => {
            setRows((old) => [...old, { resource: adding, guaranteed: '0', max: '0' }]);
            setAdding('');
          }}
        >
          {t('quota.addRow')}
        </button>
      </div>
      {mutation.isError && <FormError error={mutation.error} shownFields={(f) => /^items\[\d+\]\./.test(f)} />}
      <div className="flex justify-end gap-2">
        <button type="button" className={btnSecondary} onClick={onDone}>
          {t('common.cancel')}
        </button>
        <button type="button" data-testid="quota-save" className={btnPrimary} disabled={mutation.isPending} onClick={save}>
          {t('quota.save')}
        </button>
      </div>
    </div>
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
