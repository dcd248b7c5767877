import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { createAcceleratorModel } from '../../api/acceleratorModels';
import { splitFieldErrors } from '../../api/fieldErrors';
import { Field, FormError } from '../../components/common/Form';
import { btnPrimary, card, inputClass } from '../../components/common/ui';
import { catalogKeys } from '../catalog/queries';
import { EMPTY_NEW_MODEL, newModelBody, type NewModelDraft } from './modelChanges';

const FIELDS: (keyof NewModelDraft)[] = [
  'key',
  'resource',
  'labelKey',
  'labelValue',
  'displayName',
  'vendor',
  'memoryMiB',
  'memoryResource',
];

/** Adds a model by hand: its key, the extended resource, the node label if the resource carries several models. */
export function NewModelForm() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<NewModelDraft>(EMPTY_NEW_MODEL);
  const create = useMutation({
    mutationFn: () => createAcceleratorModel(newModelBody(draft)),
    onSuccess: () => {
      setDraft(EMPTY_NEW_MODEL);
      void queryClient.invalidateQueries({ queryKey: catalogKeys.all });
    },
  });
  const shown = (f: string) => (FIELDS as string[]).includes(f);
  const { byField } = splitFieldErrors(create.error, shown);
  const input = (name: keyof NewModelDraft, placeholder?: string) => (
    <input
      data-testid={`new-model-${name}`}
      className={inputClass}
      value={draft[name]}
      placeholder={placeholder}
      onChange={(e) => setDraft((d) => ({ ...d, [name]: e.target.value }))}
    />
  );
  return (
    <form
      data-testid="new-model-form"
      className={card}
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <h2 className="text-base font-semibold text-slate-900">{t('catalog.addTitle')}</h2>
      <p className="mt-1 text-sm text-slate-500">{t('catalog.addHint')}</p>
      <div className="mt-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <Field label={t('catalog.key')} error={byField.key}>
          {input('key', 'nvidia-h100-80gb')}
        </Field>
        <Field label={t('catalog.resource')} error={byField.resource} hint={t('catalog.resourceHint')}>
          {input('resource', 'nvidia.com/gpu')}
        </Field>
        <Field label={t('catalog.labelKey')} error={byField.labelKey} hint={t('catalog.labelHint')}>
          {input('labelKey', 'nvidia.com/gpu.product')}
        </Field>
        <Field label={t('catalog.labelValue')} error={byField.labelValue}>
          {input('labelValue', 'NVIDIA-H100-80GB-HBM3')}
        </Field>
        <Field label={t('catalog.displayName')} error={byField.displayName}>
          {input('displayName', 'NVIDIA H100 80GB')}
        </Field>
        <Field label={t('catalog.vendor')} error={byField.vendor}>
          {input('vendor', 'NVIDIA')}
        </Field>
        <Field label={t('catalog.memoryMiB')} error={byField.memoryMiB}>
          {input('memoryMiB', '81920')}
        </Field>
        <Field label={t('catalog.memoryResource')} error={byField.memoryResource} hint={t('catalog.memoryResourceHint')}>
          {input('memoryResource', 'nvidia.com/gpumem')}
        </Field>
      </div>
      {create.isError && (
        <div className="mt-3">
          <FormError error={create.error} shownFields={shown} />
        </div>
      )}
      <div className="mt-4 flex justify-end">
        <button type="submit" data-testid="new-model-submit" className={btnPrimary} disabled={create.isPending}>
          {t('catalog.add')}
        </button>
      </div>
    </form>
  );
}
