import { useMemo, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { putQuota } from '../../api/accounts';
import { fieldError } from '../../api/errors';
import type { Account, ClusterNode, QuotaItem } from '../../api/types';
import { FormError } from '../../components/common/Form';
import { QuantityInput } from '../../components/common/QuantityInput';
import { unitProblemText } from '../../components/common/quantityText';
import { btnPrimary, btnSecondary, th } from '../../components/common/ui';
import { resourceKind, type UnitProblem } from '../../lib/units';
import { useAcceleratorModels } from '../catalog/queries';
import { nodesQuery } from '../cluster/queries';
import { accountKeys } from './queries';
import { applySuggestion, companionWarning, editorRows, fleetRatios, nonZeroRows, type CompanionWarning } from './quotaEditor';
import { parseQuotaAmount, quotaItems, validateQuotaRows } from './quotaRows';

function unitKey(resource: string): string {
  return `units.${resourceKind(resource)}`;
}

/** The warning that an accelerator quota without cpu or memory lets no job start, with the fleet's ratio. */
export function CompanionWarningBox({
  warning,
  label,
  onApply,
}: {
  warning: CompanionWarning;
  label: (key: string) => string;
  onApply: () => void;
}) {
  const { t } = useTranslation();
  const missing = warning.missing.map((c) => label(c)).join(t('quotaEditor.and'));
  const s = warning.suggestion;
  return (
    <div
      role="alert"
      data-testid="quota-companion-warning"
      className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
    >
      <p>{t('quotaEditor.companionMissing', { models: warning.models.map(label).join(', '), missing })}</p>
      {s ? (
        <div className="mt-2 flex flex-wrap items-center gap-3">
          <span data-testid="quota-ratio-suggestion">
            {[
              s.cpu && t('quotaEditor.suggestCpu', { guaranteed: s.cpu.guaranteed, max: s.cpu.max }),
              s.memory && t('quotaEditor.suggestMemory', { guaranteed: s.memory.guaranteed, max: s.memory.max }),
            ]
              .filter(Boolean)
              .join('; ')}
          </span>
          <button type="button" data-testid="quota-apply-ratio" className={btnSecondary} onClick={onApply}>
            {t('quotaEditor.applyRatio')}
          </button>
        </div>
      ) : (
        <p className="mt-1">{t('quotaEditor.noRatio')}</p>
      )}
    </div>
  );
}

/**
 * All resources in one table: cpu, memory and each accelerator model of the catalogue, each one row with its
 * guaranteed and max; rows left at 0 are not sent (an absent row means 0).
 */
export function QuotaEditor({
  account,
  onDone,
  nodes,
}: {
  account: Account;
  onDone: () => void;
  /** The cluster's nodes for the per-device ratio; read from the API when not given. */
  nodes?: readonly ClusterNode[];
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const models = useAcceleratorModels();
  const nodeQuery = useQuery({ ...nodesQuery(), enabled: nodes === undefined });
  const modelKeys = (models.data?.items ?? []).map((m) => m.key);
  const [edited, setEdited] = useState<QuotaItem[] | null>(null);
  const rows = edited ?? editorRows(account.quota, modelKeys);
  const [localErrors, setLocalErrors] = useState<Record<string, UnitProblem>>({});
  const ratios = useMemo(() => fleetRatios(nodes ?? nodeQuery.data?.items ?? []), [nodes, nodeQuery.data]);
  const warning = companionWarning(rows, ratios);
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
  const label = (key: string) => (key === 'cpu' ? t('quota.cpu') : key === 'memory' ? t('quota.memory') : (names.get(key) ?? key));

  const update = (i: number, patch: Partial<QuotaItem>) => {
    setEdited(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
    // An edited row is checked again on save; until then its old messages would mislead.
    setLocalErrors((old) => Object.fromEntries(Object.entries(old).filter(([k]) => !k.startsWith(`items[${i}].`))));
    mutation.reset();
  };

  const save = () => {
    const errors = validateQuotaRows(rows);
    setLocalErrors(errors);
    if (Object.keys(errors).length > 0) return;
    mutation.mutate(quotaItems(nonZeroRows(rows)));
  };

  // Server errors name the sent rows; map them back to the rows shown.
  const sent = nonZeroRows(rows).map((r) => r.resource);
  const errorFor = (i: number, field: string) => {
    const local = localErrors[`items[${i}].${field}`];
    if (local) return unitProblemText(t, local);
    const index = sent.indexOf(rows[i]!.resource);
    return index < 0 ? undefined : fieldError(mutation.error, `items[${index}].${field}`);
  };
  const unitOf = (resource: string) => (resourceKind(resource) === 'memory' ? undefined : unitKey(resource));

  return (
    <div data-testid="quota-editor" className="flex flex-col gap-3 rounded-xl border border-indigo-200 bg-indigo-50/40 p-4">
      <h3 className="text-sm font-semibold text-slate-800">{t('quota.editTitle')}</h3>
      <p className="text-xs text-slate-500">{t('quotaEditor.hint')}</p>
      <table className="min-w-full">
        <thead>
          <tr>
            <th className={th}>{t('quota.resource')}</th>
            <th className={th}>{t('quota.guaranteed')}</th>
            <th className={th}>{t('quota.max')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={row.resource} data-testid="quota-edit-row" data-resource={row.resource}>
              <td className="px-4 py-1.5 align-top text-sm">
                <span className="block font-medium">{label(row.resource)}</span>
                <span className="block font-mono text-xs text-slate-500">
                  {row.resource} · {t(unitKey(row.resource))}
                </span>
              </td>
              {(['guaranteed', 'max'] as const).map((field) => (
                <td key={field} className="px-4 py-1.5 align-top">
                  <QuantityInput
                    testId={`quota-${field}-${row.resource}`}
                    aria-label={`${label(row.resource)} ${t(`quota.${field}`)} (${t(unitKey(row.resource))})`}
                    value={row[field]}
                    parse={(text) => parseQuotaAmount(row.resource, text)}
                    unitKey={unitOf(row.resource)}
                    error={errorFor(i, field)}
                    onChange={(text) => update(i, { [field]: text })}
                  />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {warning && (
        <CompanionWarningBox
          warning={warning}
          label={label}
          onApply={() => warning.suggestion && setEdited(applySuggestion(rows, warning.suggestion))}
        />
      )}
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
