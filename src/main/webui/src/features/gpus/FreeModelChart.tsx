import { useTranslation } from 'react-i18next';
import type { FreeModel } from '../../api/types';
import { chartScale, chartTicks, freeSplit, shareWidth } from './freeGpus';

const PARTS = [
  { key: 'free', color: 'bg-emerald-500' },
  { key: 'taken', color: 'bg-indigo-400' },
  { key: 'offline', color: 'bg-slate-300' },
] as const;

function Legend() {
  const { t } = useTranslation();
  return (
    <ul className="flex flex-wrap gap-4 text-xs text-slate-600" aria-label={t('freeGpus.chart.legend')}>
      {PARTS.map((p) => (
        <li key={p.key} className="flex items-center gap-1.5">
          <span aria-hidden="true" className={`h-2.5 w-2.5 rounded-sm ${p.color}`} />
          {t(`freeGpus.chart.${p.key}`)}
        </li>
      ))}
    </ul>
  );
}

/**
 * A bar per model on one scale (the largest model's cards): its free cards, those held or reserved, and those on
 * nodes that take no pods. The numbers stand beside each bar, and each bar's accessible name says them.
 */
export function FreeModelChart({ models }: { models: readonly FreeModel[] }) {
  const { t } = useTranslation();
  const scale = chartScale(models);
  const ticks = chartTicks(scale);
  return (
    <figure data-testid="free-chart" className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <figcaption className="flex flex-wrap items-baseline justify-between gap-2">
        <span className="text-sm text-slate-600">{t('freeGpus.chart.caption')}</span>
        <Legend />
      </figcaption>
      <div className="grid grid-cols-[minmax(8rem,14rem)_1fr_max-content] items-center gap-x-3 gap-y-2">
        {models.map((m) => {
          const split = freeSplit(m);
          const label = t('freeGpus.chart.barLabel', { model: m.displayName, ...split });
          return (
            <div key={m.model} className="contents" data-testid="free-chart-row" data-model={m.model}>
              <span className="truncate text-sm font-medium text-slate-800" title={m.displayName}>
                {m.displayName}
              </span>
              <div role="img" aria-label={label} title={label} className="h-5 w-full rounded bg-slate-100">
                <div className="flex h-5 overflow-hidden rounded" style={{ width: shareWidth(m.total, scale) }}>
                  {PARTS.map((p) => (
                    <div
                      key={p.key}
                      data-testid={`free-chart-${p.key}`}
                      data-cards={split[p.key]}
                      className={`h-5 ${p.color}`}
                      style={{ width: shareWidth(split[p.key], m.total) }}
                    />
                  ))}
                </div>
              </div>
              <span data-testid="free-chart-numbers" className="text-right text-sm tabular-nums text-slate-700">
                {t('freeGpus.chart.numbers', { free: split.free, total: split.total })}
              </span>
            </div>
          );
        })}
        <span aria-hidden="true" />
        <div aria-hidden="true" className="relative h-4 text-[10px] text-slate-400">
          {ticks.map((v) => (
            <span
              key={v}
              className="absolute -translate-x-1/2 tabular-nums first:translate-x-0 last:-translate-x-full"
              style={{ left: shareWidth(v, scale) }}
            >
              {v}
            </span>
          ))}
        </div>
        <span aria-hidden="true" className="text-[10px] text-slate-400">
          {t('freeGpus.chart.axis')}
        </span>
      </div>
    </figure>
  );
}
