import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { EmptyState, ErrorState, LoadingState } from '../../components/common/States';
import { tableWrap, td, th } from '../../components/common/ui';
import { trimNumber } from '../../lib/units';
import { useModelNames } from '../catalog/queries';
import { type ModelUse, modelUse, shares } from './gpuUse';
import { moneyText } from './money';
import { usageQuery } from './queries';
import { monthLabel, monthSpan } from './reportMonth';

function gpuHours(value: number): string {
  return trimNumber(value, 3);
}

function percent(efficiency: number | null): string {
  return efficiency === null ? '—' : `${trimNumber(efficiency * 100, 1)} %`;
}

/** One model's held time as a bar: used, measured but idle, and without samples. */
function UseBar({ use, label }: { use: ModelUse; label: string }) {
  const s = shares(use);
  return (
    <div className="flex h-3 w-full overflow-hidden rounded bg-slate-100" title={label} aria-hidden="true" data-testid="gpu-use-bar">
      <div className="bg-emerald-500" style={{ width: `${s.used}%` }} />
      <div className="bg-amber-400" style={{ width: `${s.idle}%` }} />
      <div className="bg-slate-300" style={{ width: `${s.unknown}%` }} />
    </div>
  );
}

/**
 * This month's GPU-hours held beside those used, per accelerator model: a bar of used, idle and unknown time, the
 * efficiency and what the idle held GPUs cost. Reads the month's report by day, which the cost chart also reads
 * (a member's report holds only their own jobs, as the cost chart says). The table gives screen readers the figures
 * the bars show.
 */
export function GpuUsePanel({ slug, month }: { slug: string; month?: string }) {
  const { t, i18n } = useTranslation();
  const named = month ? { month: monthLabel(month, i18n.language) } : null;
  const modelName = useModelNames();
  const query = useQuery(usageQuery({ account: slug, by: 'day', ...(month ? monthSpan(month) : {}) }));
  let body;
  if (query.isPending) body = <LoadingState />;
  else if (query.isError)
    body = <ErrorState title={t('accounting.gpuUse.loadError')} error={query.error} onRetry={() => void query.refetch()} />;
  else {
    const models = modelUse(query.data.rows);
    const currency = query.data.currency;
    const all = query.data.accelerators;
    body =
      models.length === 0 ? (
        <EmptyState title={named ? t('accounting.gpuUse.emptyIn', named) : t('accounting.gpuUse.empty')} />
      ) : (
        <>
          <p className="text-sm text-slate-700" data-testid="gpu-use-summary">
            {all.efficiency === null
              ? t('accounting.gpuUse.noSamples', { held: gpuHours(all.held) })
              : t('accounting.gpuUse.summary', {
                  efficiency: percent(all.efficiency),
                  held: gpuHours(all.held),
                  used: gpuHours(all.used),
                  unknown: gpuHours(Math.max(0, all.held - all.measured)),
                  idleCost: moneyText(all.idleCostMicros, currency),
                })}
          </p>
          <div className="flex flex-wrap gap-4 text-xs text-slate-600" aria-hidden="true">
            <span className="flex items-center gap-1">
              <span className="inline-block h-2 w-3 rounded-sm bg-emerald-500" />
              {t('accounting.gpuUse.legendUsed')}
            </span>
            <span className="flex items-center gap-1">
              <span className="inline-block h-2 w-3 rounded-sm bg-amber-400" />
              {t('accounting.gpuUse.legendIdle')}
            </span>
            <span className="flex items-center gap-1">
              <span className="inline-block h-2 w-3 rounded-sm bg-slate-300" />
              {t('accounting.gpuUse.legendUnknown')}
            </span>
          </div>
          <div className={tableWrap}>
            <table className="min-w-full" data-testid="gpu-use-table">
              <thead className="bg-slate-50">
                <tr>
                  <th className={th}>{t('accounting.gpuUse.model')}</th>
                  <th className={`${th} w-1/4`}>{t('accounting.gpuUse.split')}</th>
                  <th className={`${th} text-right`}>{t('accounting.gpuUse.held')}</th>
                  <th className={`${th} text-right`}>{t('accounting.gpuUse.used')}</th>
                  <th className={`${th} text-right`}>{t('accounting.gpuUse.unknown')}</th>
                  <th className={`${th} text-right`}>{t('accounting.gpuUse.efficiency')}</th>
                  <th className={`${th} text-right`}>{t('accounting.gpuUse.idleCost', { currency })}</th>
                </tr>
              </thead>
              <tbody>
                {models.map((m) => {
                  const s = shares(m);
                  const label = t('accounting.gpuUse.barLabel', {
                    model: modelName(m.resource),
                    used: trimNumber(s.used, 1),
                    idle: trimNumber(s.idle, 1),
                    unknown: trimNumber(s.unknown, 1),
                  });
                  return (
                    <tr key={m.resource} className="border-t border-slate-100" data-testid="gpu-use-row" data-resource={m.resource}>
                      <td className={td}>{modelName(m.resource)}</td>
                      <td className={td}>
                        <UseBar use={m} label={label} />
                      </td>
                      <td className={`${td} text-right tabular-nums`}>{gpuHours(m.held)}</td>
                      <td className={`${td} text-right tabular-nums`}>{gpuHours(m.used)}</td>
                      <td className={`${td} text-right tabular-nums`}>{gpuHours(m.unknown)}</td>
                      <td className={`${td} text-right tabular-nums`} data-testid="gpu-use-efficiency">
                        {percent(m.efficiency)}
                      </td>
                      <td className={`${td} text-right tabular-nums`}>{moneyText(m.idleCostMicros, currency)}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <p className="text-xs text-slate-500">{t('accounting.gpuUse.hint')}</p>
        </>
      );
  }
  return (
    <div className="flex flex-col gap-2" data-testid="gpu-use">
      <h3 className="text-sm font-semibold text-slate-800">
        {named ? t('accounting.gpuUse.titleIn', named) : t('accounting.gpuUse.title')}
      </h3>
      {body}
    </div>
  );
}
