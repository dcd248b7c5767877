import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { card } from '../../components/common/ui';
import { LoadingState } from '../../components/common/States';
import { memoryText, readingText, type CardSeries } from './gpuMetricsBuffer';
import { jobGpuQuery } from './queries';
import { useGpuMetricsStream, type GpuStreamStatus } from './useGpuMetricsStream';
import { chartPoints, percentText, percentY, seriesStats, type ChartBox } from './utilisationChart';
import { durationText } from './waitText';

const BOX: ChartBox = { width: 300, height: 64 };

function timeOfDay(at: number, language: string): string {
  return Number.isFinite(at) ? new Date(at).toLocaleTimeString(language, { hour: '2-digit', minute: '2-digit', second: '2-digit' }) : '';
}

/** One card: its utilisation as a line over the range shown (the idle threshold dashed), its latest readings. */
function CardChart({ series, from, to, threshold }: { series: CardSeries; from: string; to: string; threshold: number | null }) {
  const { t } = useTranslation();
  const stats = seriesStats(series.points);
  const c = series.latest;
  const label = t('jobs.gpu.card', { node: c.node ?? '—', index: c.index ?? '—', model: c.model ?? '—' });
  const drawn = chartPoints(series.points, from, to, BOX);
  // A lone sample is drawn as a dot (a zero-length line with round ends).
  const points = drawn !== '' && !drawn.includes(' ') ? `${drawn} ${drawn}` : drawn;
  const below = threshold !== null && stats.peak !== null && stats.peak < threshold;
  const duration = durationText((Date.parse(to) - Date.parse(from)) / 1000, t);
  return (
    <figure
      data-testid="job-gpu-series"
      data-pod={series.pod}
      data-accelerator={series.index ?? ''}
      data-samples={series.points.length}
      data-latest={stats.latest ?? ''}
      className="flex flex-col gap-1"
    >
      <figcaption className="flex flex-wrap items-baseline justify-between gap-2 text-xs">
        <span className="font-medium text-slate-700" title={c.uuid ?? undefined}>
          {label}
        </span>
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
        aria-label={t('jobs.gpu.chart', { series: label, duration, value: percentText(stats.latest), peak: percentText(stats.peak) })}
        className="h-16 w-full rounded bg-slate-50 ring-1 ring-slate-200"
      >
        {threshold !== null && (
          <line
            x1={0}
            x2={BOX.width}
            y1={percentY(threshold, BOX)}
            y2={percentY(threshold, BOX)}
            stroke="#f59e0b"
            strokeWidth={1}
            strokeDasharray="4 3"
            vectorEffect="non-scaling-stroke"
          />
        )}
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
      <dl data-testid="job-gpu-readings" className="grid grid-cols-3 gap-2 text-[11px] text-slate-500">
        <div>
          <dt>{t('jobs.gpu.memory')}</dt>
          <dd className="font-medium text-slate-700">{memoryText(c.memoryUsedMiB, c.memoryTotalMiB)}</dd>
        </div>
        <div>
          <dt>{t('jobs.gpu.power')}</dt>
          <dd className="font-medium text-slate-700">{readingText(c.powerWatts, 'W')}</dd>
        </div>
        <div>
          <dt>{t('jobs.gpu.temperature')}</dt>
          <dd className="font-medium text-slate-700">{readingText(c.temperatureC, '°C')}</dd>
        </div>
      </dl>
    </figure>
  );
}

function StatusLine({ status, stepSeconds }: { status: GpuStreamStatus; stepSeconds: number | null }) {
  const { t } = useTranslation();
  const text =
    status === 'live'
      ? t('jobs.gpu.live', { step: stepSeconds ?? '—' })
      : status === 'reconnecting'
        ? t('jobs.gpu.reconnecting')
        : status === 'ended'
          ? t('jobs.gpu.ended')
          : t('jobs.gpu.connecting');
  return (
    <span data-testid="job-gpu-status" data-status={status}>
      {text}
    </span>
  );
}

/**
 * The running job's GPUs, live: one small chart per card the job holds (utilisation with the idle threshold dashed,
 * memory, power, temperature), fed by the job's GPU metrics stream (a window of recent samples, then one per step).
 */
export function JobGpuUtilisation({ jobId }: { jobId: string }) {
  const { t, i18n } = useTranslation();
  const { view, status, loaded } = useGpuMetricsStream(jobId);
  // The idle rule's threshold, from the answer the idle warning reads too.
  const rule = useQuery(jobGpuQuery(jobId));
  const threshold = rule.data?.thresholdPercent ?? null;
  const firsts = view.series.map((s) => Date.parse(s.points[0]?.at ?? '')).filter(Number.isFinite);
  const start = firsts.length > 0 ? Math.min(...firsts) : NaN;
  const end = view.newest ?? NaN;

  let body;
  if (!loaded) {
    body =
      status === 'reconnecting' ? (
        <p role="alert" data-testid="job-gpu-error" className="text-sm text-rose-700">
          {t('jobs.gpu.streamError')}
        </p>
      ) : (
        <LoadingState />
      );
  } else if (view.series.length === 0) {
    body =
      view.unavailable !== null ? (
        <p data-testid="job-gpu-unavailable" className="text-sm text-slate-500">
          {t('jobs.gpu.unavailable', { why: view.unavailable })}
        </p>
      ) : (
        <p data-testid="job-gpu-empty" className="text-sm text-slate-500">
          {t('jobs.gpu.noSamples')}
        </p>
      );
  } else {
    const from = new Date(Number.isFinite(start) && start < end ? start : end - 1000).toISOString();
    const to = new Date(end).toISOString();
    body = (
      <>
        {view.unavailable !== null && (
          <p data-testid="job-gpu-unavailable" className="mb-2 text-xs text-amber-700">
            {t('jobs.gpu.unavailable', { why: view.unavailable })}
          </p>
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          {view.series.map((s) => (
            <CardChart key={s.key} series={s} from={from} to={to} threshold={threshold} />
          ))}
        </div>
        <div className="mt-1 flex justify-between text-[10px] text-slate-400">
          <span>{timeOfDay(Date.parse(from), i18n.language)}</span>
          <span>{timeOfDay(end, i18n.language)}</span>
        </div>
      </>
    );
  }

  return (
    <section data-testid="job-gpu" className={card}>
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-sm font-semibold text-slate-900">{t('jobs.gpu.title')}</h2>
        <p className="text-xs text-slate-500">
          <StatusLine status={status} stepSeconds={view.stepSeconds} />
          {threshold !== null && (
            <>
              {' · '}
              <span className="text-amber-700">{t('jobs.gpu.threshold', { threshold: percentText(threshold) })}</span>
            </>
          )}
        </p>
      </div>
      {body}
    </section>
  );
}
