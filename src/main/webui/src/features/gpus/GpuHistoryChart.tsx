import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { GpuModelHistory } from '../../api/gpus';
import { EmptyState, ErrorState, LoadingState } from '../../components/common/States';
import {
  DEFAULT_SPAN,
  HISTORY_SPANS,
  efficiencyText,
  gpuY,
  gpusText,
  historyStats,
  historyTop,
  hourText,
  labelStep,
  stepArea,
  type HistoryBox,
  type HistorySpan,
} from './gpuHistory';
import { useGpuHistory } from './queries';

const W = 640;
const H = 160;
const LEFT = 64;
const BOTTOM = 20;
const TOP = 8;
const PLOT: HistoryBox = { width: W - LEFT, height: H - TOP - BOTTOM };

/**
 * One model's hours: its cards now as a line, the GPUs held as an area, the GPUs busy as a darker area over it; the
 * current hour shaded as unfinished. Screen readers get a summary and a table of the hours.
 */
function ModelHistoryChart({ model, hours }: { model: GpuModelHistory; hours: number }) {
  const { t, i18n } = useTranslation();
  const top = historyTop(model);
  const stats = historyStats(model.points);
  const slot = PLOT.width / Math.max(1, model.points.length);
  const step = labelStep(hours);
  const partial = model.points.findIndex((p) => p.partial);
  const ticks = top <= 1 ? [0, top] : [0, Math.round(top / 2), top];
  return (
    <figure data-testid="gpu-history-model" data-model={model.model} className="flex flex-col gap-1">
      <figcaption className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
        <span className="font-medium text-slate-800">{model.displayName}</span>
        <span data-testid="gpu-history-stats" className="text-xs text-slate-500">
          {t('gpus.history.stats', {
            total: model.total,
            peak: gpusText(stats.peak),
            allocated: gpusText(stats.meanAllocated),
            used: gpusText(stats.meanUsed),
            efficiency: efficiencyText(stats.efficiency),
          })}
        </span>
      </figcaption>
      {!stats.held && (
        <p data-testid="gpu-history-idle" className="text-xs text-slate-500">
          {t('gpus.history.nothingHeld')}
        </p>
      )}
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={t('gpus.history.chartLabel', {
          model: model.displayName,
          hours,
          total: model.total,
          peak: gpusText(stats.peak),
          allocated: gpusText(stats.meanAllocated),
          used: gpusText(stats.meanUsed),
        })}
        className="h-40 w-full rounded bg-slate-50 ring-1 ring-slate-200"
      >
        {ticks.map((v) => (
          <g key={v}>
            <line x1={LEFT} x2={W} y1={TOP + gpuY(v, top, PLOT)} y2={TOP + gpuY(v, top, PLOT)} stroke="#e2e8f0" strokeWidth={1} />
            <text
              x={LEFT - 6}
              y={TOP + gpuY(v, top, PLOT) + 4}
              textAnchor="end"
              fontSize={10}
              fill="#64748b"
              data-testid="gpu-history-tick"
            >
              {t('gpus.history.tick', { value: v })}
            </text>
          </g>
        ))}
        <g transform={`translate(${LEFT},${TOP})`}>
          <path data-testid="gpu-history-allocated" d={stepArea(model.points, (p) => p.allocated, top, PLOT)} fill="#a5b4fc" />
          <path data-testid="gpu-history-used" d={stepArea(model.points, (p) => p.used, top, PLOT)} fill="#4338ca" />
          {partial >= 0 && (
            <rect data-testid="gpu-history-partial" x={partial * slot} width={slot} y={0} height={PLOT.height} fill="#ffffff" opacity={0.5}>
              <title>{t('gpus.history.partial')}</title>
            </rect>
          )}
          <line
            data-testid="gpu-history-total"
            x1={0}
            x2={PLOT.width}
            y1={gpuY(model.total, top, PLOT)}
            y2={gpuY(model.total, top, PLOT)}
            stroke="#0f172a"
            strokeWidth={1.5}
            strokeDasharray="6 3"
          />
        </g>
        {model.points.map((p, i) =>
          new Date(p.hour).getHours() % step === 0 ? (
            <text key={p.hour} x={LEFT + i * slot} y={H - 6} textAnchor="middle" fontSize={10} fill="#64748b">
              {hourText(p.hour, hours, i18n.language)}
            </text>
          ) : null,
        )}
      </svg>
      <table className="sr-only" data-testid="gpu-history-table">
        <caption>{t('gpus.history.tableCaption', { model: model.displayName, total: model.total })}</caption>
        <thead>
          <tr>
            <th scope="col">{t('gpus.history.hour')}</th>
            <th scope="col">{t('gpus.history.allocatedGpus')}</th>
            <th scope="col">{t('gpus.history.usedGpus')}</th>
            <th scope="col">{t('gpus.history.efficiency')}</th>
          </tr>
        </thead>
        <tbody>
          {model.points.map((p) => (
            <tr key={p.hour}>
              <td>
                {p.partial
                  ? t('gpus.history.hourSoFar', { hour: hourText(p.hour, 168, i18n.language) })
                  : hourText(p.hour, 168, i18n.language)}
              </td>
              <td>{gpusText(p.allocated)}</td>
              <td>{gpusText(p.used)}</td>
              <td>{efficiencyText(p.efficiency)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

/** The legend: what each mark of the charts is, with its unit. */
function Legend() {
  const { t } = useTranslation();
  return (
    <ul className="flex flex-wrap gap-4 text-xs text-slate-600" aria-label={t('gpus.history.legend')}>
      <li className="flex items-center gap-1">
        <span aria-hidden className="inline-block h-0 w-4 border-t-2 border-dashed border-slate-900" />
        {t('gpus.history.totalLegend')}
      </li>
      <li className="flex items-center gap-1">
        <span aria-hidden className="inline-block h-3 w-4 rounded-sm bg-indigo-300" />
        {t('gpus.history.allocatedLegend')}
      </li>
      <li className="flex items-center gap-1">
        <span aria-hidden className="inline-block h-3 w-4 rounded-sm bg-indigo-700" />
        {t('gpus.history.usedLegend')}
      </li>
    </ul>
  );
}

/**
 * The cluster's GPUs over the last day, two days or week: per model allocated and used against its cards, from the
 * hourly rollup that settlement and the meter fill (GET /cluster/gpu-history).
 */
export function GpuHistorySection() {
  const { t } = useTranslation();
  const [span, setSpan] = useState<HistorySpan>(DEFAULT_SPAN);
  const query = useGpuHistory(span);
  const data = query.data;
  let body;
  if (query.isPending || (data === undefined && !query.isError)) {
    body = <LoadingState />;
  } else if (data === undefined) {
    body = <ErrorState title={t('gpus.history.loadError')} error={query.error} onRetry={() => void query.refetch()} />;
  } else if (!data.models.some((m) => historyStats(m.points).held)) {
    body = <EmptyState title={t('gpus.history.empty')} />;
  } else {
    body = (
      <>
        {query.isError && <ErrorState title={t('gpus.history.refreshError')} error={query.error} onRetry={() => void query.refetch()} />}
        <Legend />
        {data.models.map((m) => (
          <ModelHistoryChart key={m.model} model={m} hours={data.hours} />
        ))}
        <p className="text-xs text-slate-500">{t('gpus.history.caption')}</p>
      </>
    );
  }
  return (
    <section aria-labelledby="gpu-history-heading" data-testid="gpu-history" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="gpu-history-heading" className="text-lg font-semibold text-slate-800">
          {t('gpus.history.title', { span: t(`gpus.history.span${span}`) })}
        </h2>
        <div role="group" aria-label={t('gpus.history.spanLabel')} className="flex gap-1">
          {HISTORY_SPANS.map((s) => (
            <button
              key={s}
              type="button"
              aria-pressed={s === span}
              data-testid="gpu-history-span"
              onClick={() => setSpan(s)}
              className={`rounded-md px-2.5 py-1 text-xs font-medium ring-1 ring-slate-200 ${
                s === span ? 'bg-indigo-600 text-white' : 'bg-white text-slate-700 hover:bg-slate-50'
              }`}
            >
              {t(`gpus.history.span${s}`)}
            </button>
          ))}
        </div>
      </div>
      {body}
    </section>
  );
}
