import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { GpuUtilisation, UtilisationSeries } from '../../api/types';
import { ErrorState, LoadingState } from '../../components/common/States';
import { card } from '../../components/common/ui';
import { formatDateTime } from '../../lib/time';
import { jobGpuQuery } from './queries';
import { chartPoints, chartStart, percentText, percentY, seriesStats, sortSeries, type ChartBox } from './utilisationChart';
import { durationText } from './waitText';

const BOX: ChartBox = { width: 300, height: 64 };

function timeOfDay(iso: string, language: string): string {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? '' : at.toLocaleTimeString(language, { hour: '2-digit', minute: '2-digit' });
}

/** One accelerator's utilisation: a line over the range, the idle threshold dashed, the latest value. */
function SeriesChart({ series, data, from }: { series: UtilisationSeries; data: GpuUtilisation; from: string }) {
  const { t, i18n } = useTranslation();
  const stats = seriesStats(series.samples);
  const label = t('jobs.gpu.series', { pod: series.pod, accelerator: series.accelerator });
  const drawn = chartPoints(series.samples, from, data.to, BOX);
  // A lone sample is drawn as a dot (a zero-length line with round ends).
  const points = drawn !== '' && !drawn.includes(' ') ? `${drawn} ${drawn}` : drawn;
  const threshold = percentY(data.thresholdPercent, BOX);
  const below = stats.peak !== null && stats.peak < data.thresholdPercent;
  const duration = durationText((Date.parse(data.to) - Date.parse(from)) / 1000, t);
  return (
    <figure
      data-testid="job-gpu-series"
      data-pod={series.pod}
      data-accelerator={series.accelerator}
      data-samples={series.samples.length}
      data-latest={stats.latest ?? ''}
      className="flex flex-col gap-1"
    >
      <figcaption className="flex flex-wrap items-baseline justify-between gap-2 text-xs">
        <span className="font-medium text-slate-700">{label}</span>
        <span className="text-slate-500">
          <span className="font-semibold text-slate-800" data-testid="job-gpu-latest">
            {t('jobs.gpu.latest', { value: percentText(stats.latest) })}
          </span>{' '}
          · {t('jobs.gpu.stats', { peak: percentText(stats.peak), mean: percentText(stats.mean) })}
        </span>
      </figcaption>
      <svg
        viewBox={`0 0 ${BOX.width} ${BOX.height}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={t('jobs.gpu.chart', {
          series: label,
          duration,
          value: percentText(stats.latest),
          peak: percentText(stats.peak),
        })}
        className="h-16 w-full rounded bg-slate-50 ring-1 ring-slate-200"
      >
        <line
          x1={0}
          x2={BOX.width}
          y1={threshold}
          y2={threshold}
          stroke="#f59e0b"
          strokeWidth={1}
          strokeDasharray="4 3"
          vectorEffect="non-scaling-stroke"
        />
        {points !== '' && (
          <polyline
            points={points}
            fill="none"
            stroke={below ? '#d97706' : '#4f46e5'}
            strokeWidth={1.5}
            strokeLinejoin="round"
            strokeLinecap="round"
            vectorEffect="non-scaling-stroke"
          />
        )}
      </svg>
      <div className="flex justify-between text-[10px] text-slate-400">
        <span>{timeOfDay(from, i18n.language)}</span>
        <span>{t('jobs.gpu.now')}</span>
      </div>
    </figure>
  );
}

/**
 * The running job's accelerator utilisation over the idle window (from its start when it is younger), one small
 * line chart per accelerator, with the idle threshold; refreshed every 30 s.
 */
export function JobGpuUtilisation({ jobId, startedAt = null }: { jobId: string; startedAt?: string | null }) {
  const { t, i18n } = useTranslation();
  const query = useQuery(jobGpuQuery(jobId));
  const data = query.data;

  let body;
  if (data === undefined) {
    body = query.isError ? (
      <ErrorState title={t('jobs.gpu.loadError')} error={query.error} onRetry={() => void query.refetch()} />
    ) : (
      <LoadingState />
    );
  } else if (data.unavailable !== null && data.series.length === 0) {
    body = (
      <p data-testid="job-gpu-unavailable" className="text-sm text-slate-500">
        {t('jobs.gpu.unavailable', { why: data.unavailable })}
      </p>
    );
  } else if (data.series.length === 0) {
    body = (
      <p data-testid="job-gpu-empty" className="text-sm text-slate-500">
        {t('jobs.gpu.noSamples')}
      </p>
    );
  } else {
    body = (
      <div className="grid gap-4 sm:grid-cols-2">
        {sortSeries(data.series).map((s) => (
          <SeriesChart key={`${s.pod}/${s.accelerator}`} series={s} data={data} from={chartStart(data.from, startedAt)} />
        ))}
      </div>
    );
  }

  return (
    <section data-testid="job-gpu" className={card}>
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-sm font-semibold text-slate-900">{t('jobs.gpu.title')}</h2>
        {data && (
          <p className="text-xs text-slate-500" title={formatDateTime(data.to, i18n.language)}>
            {t('jobs.gpu.range', { duration: durationText((Date.parse(data.to) - Date.parse(data.from)) / 1000, t) })} ·{' '}
            <span className="text-amber-700">{t('jobs.gpu.threshold', { threshold: percentText(data.thresholdPercent) })}</span>
          </p>
        )}
      </div>
      {body}
    </section>
  );
}
