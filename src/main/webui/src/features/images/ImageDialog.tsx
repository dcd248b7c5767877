import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { createImage, updateImage } from '../../api/images';
import { fieldError } from '../../api/errors';
import type { Image } from '../../api/types';
import { Dialog } from '../../components/common/Dialog';
import { Field, FormError } from '../../components/common/Form';
import { btnPrimary, btnSecondary, inputClass } from '../../components/common/ui';
import { ARCHITECTURES, IMAGE_KINDS, checkImageForm, createImageBody, updateImageBody, type ImageFormValues } from './imageForm';
import { imageKeys } from './queries';

const SHOWN = [
  'reference',
  'tags',
  'description',
  'cudaVersion',
  'architectures',
  'vendors',
  'kinds',
  'visibility',
  'account',
  'sharedWith.users',
  'sharedWith.accounts',
];

/** Adds an image, or edits one (`editing`, with the form it started from), its share lists included. */
export function ImageDialog({ initial, editing, onClose }: { initial: ImageFormValues; editing?: Image; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [v, setV] = useState(initial);
  const [checked, setChecked] = useState(false);
  const errors = checked ? checkImageForm(v) : {};
  const save = useMutation({
    mutationFn: () => (editing ? updateImage(editing.id, updateImageBody(initial, v)) : createImage(createImageBody(v))),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: imageKeys.all });
      onClose();
    },
  });
  const set = (k: keyof ImageFormValues) => (e: { target: { value: string } }) => setV({ ...v, [k]: e.target.value });
  const toggle = (k: 'architectures' | 'kinds', value: string) =>
    setV({ ...v, [k]: v[k].includes(value) ? v[k].filter((x) => x !== value) : [...v[k], value] });
  const err = (k: keyof ImageFormValues, field: string = k) =>
    errors[k] ? t(`images.form.error.${errors[k]}`) : fieldError(save.error, field);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setChecked(true);
    if (Object.keys(checkImageForm(v)).length === 0) save.mutate();
  };
  return (
    <Dialog title={t(editing ? 'images.form.editTitle' : 'images.form.createTitle')} onClose={onClose} testId="image-dialog" wide>
      <form onSubmit={submit} className="flex flex-col gap-3" noValidate>
        <Field label={t('images.form.reference')} error={err('reference')} hint={t('images.form.referenceHint')}>
          <input className={`${inputClass} font-mono`} value={v.reference} onChange={set('reference')} data-testid="image-reference" />
        </Field>
        <Field label={t('images.form.tags')} error={err('tags')} hint={t('images.form.tagsHint')}>
          <input className={`${inputClass} font-mono`} value={v.tags} onChange={set('tags')} data-testid="image-tags" />
        </Field>
        <Field label={t('images.form.description')} error={err('description')}>
          <textarea className={inputClass} value={v.description} onChange={set('description')} rows={2} />
        </Field>
        <div className="grid grid-cols-2 gap-3">
          <Field label={t('images.form.cudaVersion')} error={err('cudaVersion')} hint={t('images.form.cudaHint')}>
            <input className={inputClass} value={v.cudaVersion} onChange={set('cudaVersion')} data-testid="image-cuda" />
          </Field>
          <Field label={t('images.form.vendors')} error={err('vendors')} hint={t('images.form.vendorsHint')}>
            <input className={inputClass} value={v.vendors} onChange={set('vendors')} data-testid="image-vendors" />
          </Field>
        </div>
        <Ticks
          label={t('images.form.architectures')}
          error={err('architectures')}
          options={ARCHITECTURES}
          chosen={v.architectures}
          onToggle={(x) => toggle('architectures', x)}
          testId="image-arch"
        />
        <Ticks
          label={t('images.form.kinds')}
          error={err('kinds')}
          hint={t('images.form.kindsHint')}
          options={IMAGE_KINDS}
          chosen={v.kinds}
          onToggle={(x) => toggle('kinds', x)}
          testId="image-kind"
        />
        <div className="grid grid-cols-2 gap-3">
          <Field label={t('images.form.visibility')} error={err('visibility')} hint={t('images.form.visibilityHint')}>
            <select className={inputClass} value={v.visibility} onChange={set('visibility')} data-testid="image-visibility">
              {(['private', 'account', 'public'] as const).map((x) => (
                <option key={x} value={x}>
                  {t(`images.visibility.${x}`)}
                </option>
              ))}
            </select>
          </Field>
          {v.visibility === 'account' && (
            <Field label={t('images.form.account')} error={err('account')}>
              <input className={inputClass} value={v.account} onChange={set('account')} data-testid="image-account" />
            </Field>
          )}
        </div>
        <div className="grid grid-cols-2 gap-3">
          <Field label={t('images.form.shareUsers')} error={err('users', 'sharedWith.users')} hint={t('images.form.listHint')}>
            <input className={inputClass} value={v.users} onChange={set('users')} data-testid="image-share-users" />
          </Field>
          <Field label={t('images.form.shareAccounts')} error={err('accounts', 'sharedWith.accounts')} hint={t('images.form.listHint')}>
            <input className={inputClass} value={v.accounts} onChange={set('accounts')} data-testid="image-share-accounts" />
          </Field>
        </div>
        <FormError error={save.error} shownFields={(f) => SHOWN.includes(f)} />
        <div className="flex justify-end gap-2">
          <button type="button" className={btnSecondary} onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className={btnPrimary} disabled={save.isPending} data-testid="image-save">
            {t('images.form.save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** A row of check boxes for a list of known values. */
function Ticks(props: {
  label: string;
  error: string | undefined;
  hint?: string;
  options: readonly string[];
  chosen: string[];
  onToggle: (value: string) => void;
  testId: string;
}) {
  return (
    <fieldset>
      <legend className="mb-1 block text-sm font-medium text-slate-700">{props.label}</legend>
      <div className="flex flex-wrap gap-3">
        {props.options.map((o) => (
          <label key={o} className="flex items-center gap-1 text-sm text-slate-700">
            <input
              type="checkbox"
              checked={props.chosen.includes(o)}
              onChange={() => props.onToggle(o)}
              data-testid={`${props.testId}-${o}`}
            />
            {o}
          </label>
        ))}
      </div>
      {props.hint && !props.error && <span className="mt-1 block text-xs text-slate-500">{props.hint}</span>}
      {props.error && (
        <span role="alert" className="mt-1 block text-xs text-rose-700">
          {props.error}
        </span>
      )}
    </fieldset>
  );
}
