import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../app/PageHeader';
import { EmptyState, ErrorState, LoadingState } from '../../components/common/States';
import { btnPrimary, btnSecondary, inputClass, labelText } from '../../components/common/ui';
import type { GpuModelSummary } from '../../api/gpus';
import { GpuModelChart, GpuNodeSection } from './GpuCards';
import { GpuHistorySection } from './GpuHistoryChart';
import { filterFromSearch } from './gpuText';
import { useGpus } from './queries';

/** "At least N free [model]": sets the page's query parameters, which the request carries. */
function FreeFilter({ models }: { models: GpuModelSummary[] }) {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const current = filterFromSearch(search);
  const [minFree, setMinFree] = useState(current.minFree === null ? '' : String(current.minFree));
  const [model, setModel] = useState(current.model ?? '');
  const apply = (e: FormEvent) => {
    e.preventDefault();
    const next = new URLSearchParams();
    if (minFree.trim() !== '') next.set('minFree', minFree.trim());
    if (model !== '') next.set('model', model);
    setSearch(next);
  };
  const clear = () => {
    setMinFree('');
    setModel('');
    setSearch(new URLSearchParams());
  };
  return (
    <form onSubmit={apply} data-testid="gpu-filter" className="flex flex-wrap items-end gap-3" aria-label={t('gpus.filter')}>
      <label>
        <span className={labelText}>{t('gpus.atLeast')}</span>
        <input
          data-testid="gpu-min-free"
          type="number"
          min={0}
          max={1024}
          value={minFree}
          onChange={(e) => setMinFree(e.target.value)}
          className={`${inputClass} w-24`}
        />
      </label>
      <label>
        <span className={labelText}>{t('gpus.freeOfModel')}</span>
        <select data-testid="gpu-model-select" value={model} onChange={(e) => setModel(e.target.value)} className={inputClass}>
          <option value="">{t('gpus.anyModel')}</option>
          {models.map((m) => (
            <option key={m.model} value={m.model}>
              {m.displayName}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className={btnPrimary}>
        {t('gpus.apply')}
      </button>
      <button type="button" onClick={clear} className={btnSecondary}>
        {t('gpus.clear')}
      </button>
    </form>
  );
}

export function GpusPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const filter = filterFromSearch(search);
  const query = useGpus(filter);
  const data = query.data;
  let body;
  if (query.isPending) {
    body = <LoadingState />;
  } else if (query.isError && data === undefined) {
    body = <ErrorState title={t('gpus.loadError')} error={query.error} onRetry={() => void query.refetch()} />;
  } else if (data === undefined) {
    body = <LoadingState />;
  } else if (data.unavailable !== null) {
    body = (
      <div
        role="alert"
        data-testid="gpus-unavailable"
        className="rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm text-amber-800"
      >
        {t('gpus.unavailable', { why: data.unavailable })}
      </div>
    );
  } else if (data.models.length === 0) {
    body = <EmptyState title={t('gpus.empty')} />;
  } else {
    body = (
      <>
        {query.isError && <ErrorState title={t('gpus.refreshError')} error={query.error} onRetry={() => void query.refetch()} />}
        <section aria-labelledby="gpu-models-heading" className="flex flex-col gap-3">
          <h2 id="gpu-models-heading" className="text-lg font-semibold text-slate-800">
            {t('gpus.modelsTitle')}
          </h2>
          <GpuModelChart models={data.models} />
        </section>
        <section aria-labelledby="gpu-nodes-heading" className="flex flex-col gap-3">
          <h2 id="gpu-nodes-heading" className="text-lg font-semibold text-slate-800">
            {t('gpus.nodesTitle')}
          </h2>
          <FreeFilter models={data.models} />
          {data.nodes.length === 0 ? (
            <EmptyState title={t('gpus.noMatch')} />
          ) : (
            data.nodes.map((n) => <GpuNodeSection key={n.name} node={n} />)
          )}
        </section>
      </>
    );
  }
  return (
    <div className="flex flex-col gap-8">
      <PageHeader title={t('gpus.title')} subtitle={t('gpus.subtitle')} />
      {body}
      <GpuHistorySection />
    </div>
  );
}
