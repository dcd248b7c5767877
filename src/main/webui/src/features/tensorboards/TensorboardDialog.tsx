import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { fieldError } from '../../api/errors';
import { createTensorboard } from '../../api/tensorboards';
import { Dialog } from '../../components/common/Dialog';
import { Field, FormError } from '../../components/common/Form';
import { btnPrimary, btnSecondary, btnSmall, inputClass } from '../../components/common/ui';
import { FolderBrowser } from '../files/FolderBrowser';
import { spacesQuery } from '../files/queries';
import { tensorboardKeys } from './queries';
import {
  MAX_SOURCES,
  checkTensorboardForm,
  createTensorboardBody,
  emptySource,
  type SourceLine,
  type TensorboardFormValues,
} from './tensorboardForm';

/** Makes a panel: its name and one to eight log folders, each a space's folder or a job's working directory. */
export function TensorboardDialog({ initial, onClose }: { initial: TensorboardFormValues; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const spaces = useQuery(spacesQuery());
  const [v, setV] = useState(initial);
  const [checked, setChecked] = useState(false);
  /** The source line whose folder is being picked, if any. */
  const [browsing, setBrowsing] = useState<number | null>(null);
  const errors = checked ? checkTensorboardForm(v) : {};
  const save = useMutation({
    mutationFn: () => createTensorboard(createTensorboardBody(v)),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: tensorboardKeys.all });
      onClose();
    },
  });
  const err = (field: string) => (errors[field] ? t(`tensorboards.form.error.${errors[field]}`) : fieldError(save.error, field));
  const setLine = (i: number, change: Partial<SourceLine>) =>
    setV({ ...v, sources: v.sources.map((s, j) => (j === i ? { ...s, ...change } : s)) });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setChecked(true);
    if (Object.keys(checkTensorboardForm(v)).length === 0) save.mutate();
  };
  const spaceNames = spaces.data?.map((s) => s.name) ?? ['user'];
  return (
    <Dialog title={t('tensorboards.form.title')} onClose={onClose} testId="tensorboard-dialog" wide>
      <form onSubmit={submit} className="flex flex-col gap-3" noValidate>
        <Field label={t('tensorboards.form.name')} error={err('name')} hint={t('tensorboards.form.nameHint')}>
          <input
            className={inputClass}
            value={v.name}
            onChange={(e) => setV({ ...v, name: e.target.value })}
            data-testid="tensorboard-name"
          />
        </Field>
        <div className="text-sm font-medium text-slate-700">{t('tensorboards.form.sources')}</div>
        {err('sources') && <div className="text-xs text-rose-700">{err('sources')}</div>}
        {v.sources.map((s, i) => (
          <div key={i} className="grid grid-cols-12 items-start gap-2" data-testid={`tensorboard-source-${i}`}>
            <select
              className={`${inputClass} col-span-2`}
              value={s.kind}
              onChange={(e) => setLine(i, { kind: e.target.value as SourceLine['kind'] })}
              aria-label={t('tensorboards.form.kind')}
            >
              <option value="folder">{t('tensorboards.form.folder')}</option>
              <option value="job">{t('tensorboards.form.job')}</option>
            </select>
            {s.kind === 'folder' ? (
              <>
                <select
                  className={`${inputClass} col-span-3`}
                  value={s.space}
                  onChange={(e) => setLine(i, { space: e.target.value })}
                  aria-label={t('tensorboards.form.space')}
                >
                  {[...new Set([...spaceNames, s.space])].map((x) => (
                    <option key={x} value={x}>
                      {x}
                    </option>
                  ))}
                </select>
                <Field label="" error={err(`sources[${i}].path`) ?? err(`sources[${i}].space`)} className="col-span-4">
                  <div className="flex gap-1">
                    <input
                      className={inputClass}
                      value={s.path}
                      placeholder="/runs/exp1"
                      onChange={(e) => setLine(i, { path: e.target.value })}
                      aria-label={t('tensorboards.form.path')}
                    />
                    <button
                      type="button"
                      className={`${btnSecondary} ${btnSmall}`}
                      onClick={() => setBrowsing(browsing === i ? null : i)}
                      data-testid={`tensorboard-browse-${i}`}
                    >
                      {t('tensorboards.form.browse')}
                    </button>
                  </div>
                </Field>
              </>
            ) : (
              <Field label="" error={err(`sources[${i}].job`)} className="col-span-7">
                <input
                  className={inputClass}
                  value={s.job}
                  placeholder="j7k3f9"
                  onChange={(e) => setLine(i, { job: e.target.value })}
                  aria-label={t('tensorboards.form.jobId')}
                />
              </Field>
            )}
            <Field label="" error={err(`sources[${i}].name`)} className="col-span-2">
              <input
                className={inputClass}
                value={s.name}
                placeholder={t('tensorboards.form.prefix')}
                onChange={(e) => setLine(i, { name: e.target.value })}
                aria-label={t('tensorboards.form.prefix')}
              />
            </Field>
            <button
              type="button"
              className={`${btnSecondary} ${btnSmall} col-span-1`}
              onClick={() => {
                setBrowsing(null);
                setV({ ...v, sources: v.sources.filter((_, j) => j !== i) });
              }}
              aria-label={t('tensorboards.form.remove')}
            >
              ×
            </button>
            {browsing === i && s.kind === 'folder' && (
              <div className="col-span-12">
                <FolderBrowser
                  key={s.space}
                  space={s.space}
                  start={s.path}
                  onChoose={(path) => {
                    setLine(i, { path });
                    setBrowsing(null);
                  }}
                  onClose={() => setBrowsing(null)}
                />
              </div>
            )}
          </div>
        ))}
        {v.sources.length < MAX_SOURCES && (
          <button
            type="button"
            className={`${btnSecondary} ${btnSmall} self-start`}
            onClick={() => setV({ ...v, sources: [...v.sources, emptySource()] })}
            data-testid="tensorboard-add-source"
          >
            {t('tensorboards.form.addSource')}
          </button>
        )}
        <p className="text-xs text-slate-500">{t('tensorboards.form.hint')}</p>
        <FormError error={save.error} shownFields={(f) => f === 'name' || f === 'sources' || f.startsWith('sources[')} />
        <div className="flex justify-end gap-2">
          <button type="button" className={btnSecondary} onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className={btnPrimary} disabled={save.isPending} data-testid="tensorboard-save">
            {t('tensorboards.form.save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
