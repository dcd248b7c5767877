import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { deleteAcceleratorModel, retireAcceleratorModel, updateAcceleratorModel } from '../../api/acceleratorModels';
import type { AcceleratorModel } from '../../api/types';
import { PageHeader } from '../../app/PageHeader';
import { ConfirmButton } from '../../components/common/ConfirmButton';
import { FormError } from '../../components/common/Form';
import { DataTable } from '../../components/common/DataTable';
import { btnPrimary, btnSecondary, btnSmall, inputClass, td } from '../../components/common/ui';
import { catalogKeys, useAcceleratorModels } from '../catalog/queries';
import { draftOf, mappingText, memoryText, mibOf, modelChanges, usesOf } from './modelChanges';
import { ModelProposals } from './ModelProposals';
import { NewModelForm } from './NewModelForm';

/** A refusal of a catalogue action, with a 409 ModelInUse said in the viewer's language. */
function Refusal({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const uses = usesOf(error);
  if (uses.length === 0) return <FormError error={error} />;
  const list = uses
    .map((u) => t('catalog.use', { what: t(`catalog.uses.${u.what}`, { defaultValue: u.what }), count: u.count }))
    .join(', ');
  return <FormError error={error} message={t('catalog.inUse', { uses: list })} shownFields={() => true} />;
}

export function ModelRow({ model }: { model: AcceleratorModel }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(() => draftOf(model));
  const patch = modelChanges(model, draft);
  const memoryInvalid = Number.isNaN(mibOf(draft.memoryMiB));
  const dirty = Object.keys(patch).length > 0;
  const refresh = () => void queryClient.invalidateQueries({ queryKey: catalogKeys.all });
  const save = useMutation({ mutationFn: () => updateAcceleratorModel(model.key, patch), onSuccess: refresh });
  const retire = useMutation({ mutationFn: () => retireAcceleratorModel(model.key, !model.retired), onSuccess: refresh });
  const remove = useMutation({ mutationFn: () => deleteAcceleratorModel(model.key), onSuccess: refresh });
  const error = save.error ?? retire.error ?? remove.error;
  const busy = save.isPending || retire.isPending || remove.isPending;
  return (
    <tr data-testid="model-row" data-key={model.key} data-retired={model.retired} className="border-t border-slate-100 align-top">
      <td className={td}>
        <span className="block font-mono text-sm text-slate-800">
          {model.key}
          {model.retired && (
            <span data-testid="model-retired" className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 font-sans text-xs text-amber-800">
              {t('catalog.retiredBadge', { at: model.retiredAt?.slice(0, 10) ?? '' })}
            </span>
          )}
        </span>
        <span className="block text-xs text-slate-500">{mappingText(model)}</span>
        {error !== null && (
          <div className="mt-1">
            <Refusal error={error} />
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
        <input
          data-testid="model-memory"
          aria-label={t('catalog.memoryOf', { key: model.key })}
          inputMode="numeric"
          className={`${inputClass} w-28`}
          value={draft.memoryMiB}
          onChange={(e) => setDraft((d) => ({ ...d, memoryMiB: e.target.value }))}
        />
        <span className="mt-0.5 block text-xs text-slate-500" data-testid="model-memory-text">
          {memoryInvalid ? t('catalog.memoryInvalid') : memoryText(mibOf(draft.memoryMiB))}
        </span>
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
        <span className="inline-flex flex-wrap justify-end gap-1">
          <button type="button" className={btnSecondary} disabled={!dirty || busy} onClick={() => setDraft(draftOf(model))}>
            {t('common.reset')}
          </button>
          <button
            type="button"
            data-testid="model-save"
            className={btnPrimary}
            disabled={!dirty || memoryInvalid || busy}
            onClick={() => save.mutate()}
          >
            {t('common.save')}
          </button>
          <button type="button" data-testid="model-retire" className={btnSmall} disabled={busy} onClick={() => retire.mutate()}>
            {model.retired ? t('catalog.unretire') : t('catalog.retire')}
          </button>
          <ConfirmButton testId="model-delete" disabled={busy} onConfirm={() => remove.mutate()}>
            {t('common.delete')}
          </ConfirmButton>
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
          { id: 'memory', header: t('catalog.memory') },
          { id: 'access', header: t('catalog.access') },
          { id: 'actions' },
        ]}
        // Keyed by what a row edits, so a saved change starts the row's draft afresh.
        rowKey={(m) => `${m.key}:${m.displayName}:${m.vendor}:${m.restricted}:${m.memoryMiB}:${m.retired}`}
        renderRow={(m) => <ModelRow model={m} />}
        empty={{ title: t('catalog.empty') }}
        errorTitle={t('catalog.loadError')}
        testId="model-table"
      />
      <NewModelForm />
      <ModelProposals />
    </div>
  );
}
