import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { createAsset, updateAsset } from '../../api/assets';
import { fieldError } from '../../api/errors';
import type { Asset } from '../../api/types';
import { Dialog } from '../../components/common/Dialog';
import { Field, FormError } from '../../components/common/Form';
import { btnPrimary, btnSecondary, inputClass } from '../../components/common/ui';
import { spacesQuery } from '../files/queries';
import { assetKeys } from './queries';
import { checkAssetForm, createBody, updateBody, type AssetFormValues } from './assetForm';

const SHOWN = ['name', 'space', 'path', 'visibility', 'account', 'tags', 'description', 'licence', 'source', 'revision'];

/** Registers an entry, or edits one (`editing` with the form it started from). */
export function AssetDialog({ initial, editing, onClose }: { initial: AssetFormValues; editing?: Asset; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const spaces = useQuery(spacesQuery());
  const [v, setV] = useState(initial);
  const [checked, setChecked] = useState(false);
  const errors = checked ? checkAssetForm(v) : {};
  const save = useMutation({
    mutationFn: () => (editing ? updateAsset(editing.id, updateBody(initial, v)) : createAsset(createBody(v))),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: assetKeys.all });
      onClose();
    },
  });
  const set = (k: keyof AssetFormValues) => (e: { target: { value: string } }) => setV({ ...v, [k]: e.target.value });
  const err = (k: keyof AssetFormValues) => (errors[k] ? t(`assets.form.error.${errors[k]}`) : fieldError(save.error, k));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setChecked(true);
    if (Object.keys(checkAssetForm(v)).length === 0) save.mutate();
  };
  const spaceNames = spaces.data?.map((s) => s.name) ?? ['user'];
  return (
    <Dialog title={t(editing ? 'assets.form.editTitle' : 'assets.form.createTitle')} onClose={onClose} testId="asset-dialog" wide>
      <form onSubmit={submit} className="flex flex-col gap-3" noValidate>
        <Field label={t('assets.form.kind')}>
          <select className={inputClass} value={v.kind} disabled={!!editing} onChange={set('kind')} data-testid="asset-kind">
            <option value="dataset">{t('assets.kind.dataset')}</option>
            <option value="model">{t('assets.kind.model')}</option>
          </select>
        </Field>
        <Field label={t('assets.form.name')} error={err('name')} hint={t('assets.form.nameHint')}>
          <input className={inputClass} value={v.name} onChange={set('name')} data-testid="asset-name" />
        </Field>
        <div className="grid grid-cols-3 gap-3">
          <Field label={t('assets.form.space')} error={err('space')}>
            <select className={inputClass} value={v.space} onChange={set('space')} data-testid="asset-space">
              {[...new Set([...spaceNames, v.space])].map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </Field>
          <Field label={t('assets.form.path')} error={err('path')} className="col-span-2">
            <input className={inputClass} value={v.path} onChange={set('path')} data-testid="asset-path" />
          </Field>
        </div>
        <Field label={t('assets.form.description')} error={err('description')}>
          <textarea className={inputClass} value={v.description} onChange={set('description')} rows={2} />
        </Field>
        <div className="grid grid-cols-3 gap-3">
          <Field label={t('assets.form.licence')} error={err('licence')}>
            <input className={inputClass} value={v.licence} onChange={set('licence')} />
          </Field>
          <Field label={t('assets.form.source')} error={err('source')}>
            <input className={inputClass} value={v.source} onChange={set('source')} />
          </Field>
          <Field label={t('assets.form.revision')} error={err('revision')}>
            <input className={inputClass} value={v.revision} onChange={set('revision')} />
          </Field>
        </div>
        <div className="grid grid-cols-2 gap-3">
          <Field label={t('assets.form.visibility')} error={err('visibility')}>
            <select className={inputClass} value={v.visibility} onChange={set('visibility')} data-testid="asset-visibility">
              {(['private', 'account', 'public'] as const).map((x) => (
                <option key={x} value={x}>
                  {t(`assets.visibility.${x}`)}
                </option>
              ))}
            </select>
          </Field>
          {v.visibility === 'account' && (
            <Field label={t('assets.form.account')} error={err('account')}>
              <input className={inputClass} value={v.account} onChange={set('account')} data-testid="asset-account" />
            </Field>
          )}
        </div>
        <Field label={t('assets.form.tags')} error={err('tags')} hint={t('assets.form.tagsHint')}>
          <input className={inputClass} value={v.tags} onChange={set('tags')} data-testid="asset-tags" />
        </Field>
        <FormError error={save.error} shownFields={(f) => SHOWN.includes(f)} />
        <div className="flex justify-end gap-2">
          <button type="button" className={btnSecondary} onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className={btnPrimary} disabled={save.isPending} data-testid="asset-save">
            {t('assets.form.save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
