import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { GpuCard, GpuHolder, GpuModelSummary, GpuNode } from '../../api/gpus';
import { card as cardClass } from '../../components/common/ui';
import { trimNumber } from '../../lib/units';
import { memoryText, percentWidth } from './gpuText';

function Bar({ value, max, label, color }: { value: number; max: number; label: string; color: string }) {
  const share = max > 0 ? Math.max(0, Math.min(1, value / max)) : 0;
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={value}
      className="h-2 w-full overflow-hidden rounded-full bg-slate-200"
    >
      <div className={`h-2 rounded-full ${color}`} style={{ width: `${(share * 100).toFixed(1)}%` }} />
    </div>
  );
}

function HolderText({ holder }: { holder: GpuHolder | null }) {
  const { t } = useTranslation();
  if (holder === null) return <span className="text-emerald-700">{t('gpus.free')}</span>;
  if (holder.job) {
    return (
      <span>
        <Link to={`/jobs/${holder.job}`} className="font-medium text-indigo-700 hover:underline">
          {holder.jobName ?? holder.job}
        </Link>{' '}
        <span className="text-slate-500">{t('gpus.heldBy', { owner: holder.owner ?? '?', account: holder.account ?? '?' })}</span>
      </span>
    );
  }
  if (holder.pod) return <span className="text-slate-600">{t('gpus.pod', { namespace: holder.namespace ?? '', pod: holder.pod })}</span>;
  return <span className="text-slate-500">{t('gpus.otherAccount')}</span>;
}

/** One card: utilisation bar and %, memory, power and temperature where known, and its holder. */
export function GpuCardTile({ gpu }: { gpu: GpuCard }) {
  const { t } = useTranslation();
  const memory = memoryText(gpu.memoryUsedMiB, gpu.memoryTotalMiB);
  return (
    <li data-testid="gpu-card" data-index={gpu.index} className="rounded-lg border border-slate-200 bg-white p-3 text-sm">
      <div className="flex items-baseline justify-between">
        <span className="font-medium text-slate-800">{t('gpus.card', { index: gpu.index })}</span>
        <span data-testid="gpu-util" className="tabular-nums text-slate-700">
          {gpu.utilisation === null ? t('gpus.noReading') : `${trimNumber(gpu.utilisation, 0)}%`}
        </span>
      </div>
      <div className="mt-1">
        <Bar value={percentWidth(gpu.utilisation)} max={100} label={t('gpus.utilisationOf', { index: gpu.index })} color="bg-indigo-500" />
      </div>
      <dl className="mt-2 grid grid-cols-3 gap-1 text-xs text-slate-500">
        <div>
          <dt className="sr-only">{t('gpus.memory')}</dt>
          <dd data-testid="gpu-memory">{memory ?? '—'}</dd>
        </div>
        <div>
          <dt className="sr-only">{t('gpus.power')}</dt>
          <dd data-testid="gpu-power">{gpu.powerWatts === null ? '—' : `${trimNumber(gpu.powerWatts, 0)} W`}</dd>
        </div>
        <div>
          <dt className="sr-only">{t('gpus.temperature')}</dt>
          <dd data-testid="gpu-temp">{gpu.temperatureC === null ? '—' : `${trimNumber(gpu.temperatureC, 0)} °C`}</dd>
        </div>
      </dl>
      <p data-testid="gpu-holder" className="mt-2 truncate text-xs">
        <HolderText holder={gpu.holder} />
      </p>
    </li>
  );
}

/** A node with its grid of cards. */
export function GpuNodeSection({ node }: { node: GpuNode }) {
  const { t } = useTranslation();
  return (
    <section data-testid="gpu-node" data-node={node.name} className={cardClass}>
      <header className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="font-semibold text-slate-900">{node.name}</h3>
        <span className="text-sm text-slate-500">
          {node.displayName} · {t('gpus.nodeFree', { free: node.free, cards: node.cards.length })}
          {!node.schedulable && <span className="ml-2 text-amber-700">{t('gpus.unschedulable')}</span>}
        </span>
      </header>
      <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {node.cards.map((c) => (
          <GpuCardTile key={c.index} gpu={c} />
        ))}
      </ul>
    </section>
  );
}

/** Per model: allocated against free cards, and the mean utilisation of the allocated ones, as bars. */
export function GpuModelChart({ models }: { models: GpuModelSummary[] }) {
  const { t } = useTranslation();
  return (
    <ul className="grid grid-cols-1 gap-3 md:grid-cols-2" aria-label={t('gpus.modelsTitle')}>
      {models.map((m) => (
        <li key={m.model} data-testid="gpu-model" data-model={m.model} className={cardClass}>
          <p className="font-medium text-slate-900">{m.displayName}</p>
          <p data-testid="gpu-model-counts" className="mt-1 text-sm text-slate-600">
            {t('gpus.modelCounts', { allocated: m.allocated, free: m.free, cards: m.cards })}
          </p>
          <div className="mt-2 flex flex-col gap-2">
            <Bar value={m.allocated} max={m.cards} label={t('gpus.allocatedOf', { model: m.displayName })} color="bg-indigo-500" />
            <Bar value={m.free} max={m.cards} label={t('gpus.freeOf', { model: m.displayName })} color="bg-emerald-500" />
            <Bar
              value={percentWidth(m.meanUtilisation)}
              max={100}
              label={t('gpus.meanOf', { model: m.displayName })}
              color="bg-amber-500"
            />
          </div>
          <p data-testid="gpu-model-mean" className="mt-1 text-xs text-slate-500">
            {m.meanUtilisation === null ? t('gpus.meanNone') : t('gpus.mean', { value: trimNumber(m.meanUtilisation, 0) })}
          </p>
        </li>
      ))}
    </ul>
  );
}
