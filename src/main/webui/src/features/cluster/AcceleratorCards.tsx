import { useTranslation } from 'react-i18next';
import type { AcceleratorSummary } from '../../api/types';
import { ResourceBar } from '../../components/common/ResourceBar';
import { formatGpuCount, formatPercent } from '../../lib/units';

export function AcceleratorCard({ acc }: { acc: AcceleratorSummary }) {
  const { t } = useTranslation();
  const free = formatGpuCount(acc.free);
  const total = formatGpuCount(acc.total);
  return (
    <article
      data-testid="accelerator-card"
      data-model={acc.model}
      className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <header className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 className="font-semibold leading-snug text-slate-900" title={acc.model}>
            {acc.displayName}
          </h3>
          <p className="text-xs uppercase tracking-wide text-slate-500">{acc.vendor}</p>
        </div>
        <span className="shrink-0 rounded-md bg-slate-100 px-2 py-0.5 text-xs text-slate-600">
          {t('accelerator.nodes', { count: acc.nodes })}
        </span>
      </header>
      <p className="flex items-baseline gap-1.5" aria-label={t('accelerator.freeOfTotal', { free, total })}>
        <span data-testid="accelerator-free" className="text-4xl font-bold tabular-nums text-slate-900">
          {free}
        </span>
        <span className="text-2xl text-slate-400">/</span>
        <span data-testid="accelerator-total" className="text-2xl font-semibold tabular-nums text-slate-600">
          {total}
        </span>
        <span className="ml-1 text-sm text-slate-500">{t('accelerator.free')}</span>
      </p>
      <ResourceBar used={acc.allocated} total={acc.total} label={acc.displayName} />
      <p className="text-xs text-slate-500">
        {t('accelerator.allocated', {
          allocated: formatGpuCount(acc.allocated),
          percent: formatPercent(acc.allocated, acc.total),
        })}
      </p>
    </article>
  );
}

export function AcceleratorCards({ items }: { items: AcceleratorSummary[] }) {
  return (
    <div data-testid="accelerator-cards" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
      {items.map((acc) => (
        <AcceleratorCard key={acc.model} acc={acc} />
      ))}
    </div>
  );
}
