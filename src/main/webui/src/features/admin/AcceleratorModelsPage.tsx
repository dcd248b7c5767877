import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { updateAcceleratorModel } from '../../api/acceleratorModels';
import type { AcceleratorModel } from '../../api/types';
import { PageHeader } from '../../app/PageHeader';
import { FormError } from '../../components/common/Form';
import { DataTable } from '../../components/common/DataTable';
import { btnPrimary, btnSecondary, inputClass, td } from '../../components/common/ui';
import { catalogKeys, useAcceleratorModels } from '../catalog/queries';
import { modelChanges } from './modelChanges';

export function ModelRow({ model }: { model: AcceleratorModel }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState({ displayName: model.displayName, vendor: model.vendor, restricted: model.restricted });
  const patch = modelChanges(model, draft);
  const dirty = Object.keys(patch).length > 0;
  const mutation = useMutation({
    mutationFn: () => updateAcceleratorModel(model.key, patch),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: catalogKeys.all }),
  });
  return (
    <tr data-testid="model-row" data-key={model.key} className="border-t border-slate-100 align-top">
      <td className={td}>
        <span className="block font-mono text-sm text-slate-800">{model.key}</span>
        <span className="block text-xs text-slate-500">
          {model.resource} · {model.labelKey}={model.labelValue}
        </span>
        {mutation.isError && (
          <div className="mt-1">
            <FormError error={mutation.error} />
          </div>
        )}
      </td>
      <td className={td}>
        <input
          data-testid="model-display-name"
          aria-label={t('catalog.displayNameOf', { key: model.key })}
          className={inputClass}
          value={draft.displayName}
          onChange={(e) => setDraft((d) => ({ ...d, displayName: e.target.value }))}
        />
      </td>
      <td className={td}>
        <input
          data-testid="model-vendor"
          aria-label={t('catalog.vendorOf', { key: model.key })}
          className={inputClass}
          value={draft.vendor}
          onChange={(e) => setDraft((d) => ({ ...d, vendor: e.target.value }))}
        />
      </td>
      <td className={td}>
        <label className="inline-flex items-center gap-2">
          <input
            type="checkbox"
            data-testid="model-restricted"
            checked={draft.restricted}
            onChange={(e) => setDraft((d) => ({ ...d, restricted: e.target.checked }))}
            className="h-4 w-4 rounded border-slate-300 text-indigo-600"
          />
          <span className="text-sm">{t('catalog.restrictedLabel')}</span>
        </label>
        <p className="mt-0.5 text-xs text-slate-500" data-testid="model-access-meaning">
          {draft.restricted ? t('catalog.restrictedMeaning') : t('catalog.openMeaning')}
        </p>
      </td>
      <td className={`${td} whitespace-nowrap text-right`}>
        <span className="inline-flex gap-1">
          <button
            type="button"
            className={btnSecondary}
            disabled={!dirty || mutation.isPending}
            onClick={() => setDraft({ displayName: model.displayName, vendor: model.vendor, restricted: model.restricted })}
          >
            {t('common.reset')}
          </button>
          <button
            type="button"
            data-testid="model-save"
            className={btnPrimary}
            disabled={!dirty || mutation.isPending}
            onClick={() => mutation.mutate()}
          >
            {t('common.save')}
          </button>
        </span>
      </td>
    </tr>
  );
}

export function AcceleratorModelsPage() {
  const { t } = useTranslation();
  const query = useAcceleratorModels();
  return (
    <div className="flex flex-col gap-6">
      <PageHeader title={t('catalog.title')} subtitle={t('catalog.subtitle')} />
      <DataTable
        query={query}
        rows={query.data?.items ?? []}
        columns={[
          { id: 'key', header: t('catalog.key') },
          { id: 'displayName', header: t('catalog.displayName') },
          { id: 'vendor', header: t('catalog.vendor') },
          { id: 'access', header: t('catalog.access') },
          { id: 'actions' },
        ]}
        // Keyed by what a row edits, so a saved change starts the row's draft afresh.
        rowKey={(m) => `${m.key}:${m.displayName}:${m.vendor}:${m.restricted}`}
        renderRow={(m) => <ModelRow model={m} />}
        empty={{ title: t('catalog.empty') }}
        errorTitle={t('catalog.loadError')}
        testId="model-table"
      />
    </div>
  );
}
