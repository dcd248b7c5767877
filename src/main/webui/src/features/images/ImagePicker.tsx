import { useDeferredValue, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { JobKind } from '../../api/types';
import { ErrorState, LoadingState } from '../../components/common/States';
import { StatusBadge } from '../../components/common/StatusBadge';
import { btnSecondary, btnSmall, inputClass } from '../../components/common/ui';
import { useAcceleratorModels } from '../catalog/queries';
import { checkTone } from './imageForm';
import { imageChoices, pickFilter, type ImageChoice } from './imagePick';
import { imagesQuery } from './queries';

interface ImagePickerProps {
  kind: JobKind;
  /** The form's accelerator model key, "" for none. */
  acceleratorModel: string;
  /** The Image field as typed. */
  value: string;
  onChoose: (text: string) => void;
}

/**
 * "Choose from the catalogue" beside the job form's Image field: the catalogue images the caller sees that fit the
 * job's kind and accelerator, one line per tag with its last check; choosing one fills the field with
 * `reference:tag`. The field stays free text. A chosen tag whose check failed is warned about under the field.
 */
export function ImagePicker({ kind, acceleratorModel, value, onChoose }: ImagePickerProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [chosen, setChosen] = useState<ImageChoice | null>(null);
  const choose = (c: ImageChoice) => {
    setChosen(c);
    setOpen(false);
    onChoose(c.text);
  };
  // The warning speaks of the chosen tag only while the field still holds it.
  const current = chosen && chosen.text === value.trim() ? chosen : null;
  return (
    <div className="mt-1">
      <button
        type="button"
        className={`${btnSecondary} ${btnSmall}`}
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        data-testid="image-pick-toggle"
      >
        {open ? t('jobs.form.imagePicker.close') : t('jobs.form.imagePicker.open')}
      </button>
      {open && <PickerPanel kind={kind} acceleratorModel={acceleratorModel} onChoose={choose} />}
      {current && <ChosenCheck choice={current} />}
    </div>
  );
}

function PickerPanel({
  kind,
  acceleratorModel,
  onChoose,
}: Pick<ImagePickerProps, 'kind' | 'acceleratorModel'> & { onChoose: (c: ImageChoice) => void }) {
  const { t } = useTranslation();
  const models = useAcceleratorModels();
  const [q, setQ] = useState('');
  const search = useDeferredValue(q);
  const list = useQuery(imagesQuery(pickFilter(kind, acceleratorModel, search)));
  const model = (models.data?.items ?? []).find((m) => m.key === acceleratorModel);
  const fits =
    acceleratorModel === ''
      ? t('jobs.form.imagePicker.fitsKind', { kind: t(`jobs.kinds.${kind}`) })
      : t('jobs.form.imagePicker.fitsKindAndModel', {
          kind: t(`jobs.kinds.${kind}`),
          model: model ? `${model.displayName} (${model.vendor})` : acceleratorModel,
        });
  const choices = imageChoices(list.data?.items ?? []);
  return (
    <div data-testid="image-pick-panel" className="mt-2 rounded-lg border border-slate-200 bg-slate-50 p-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-xs text-slate-600" data-testid="image-pick-fits">
          {fits}
        </p>
        <input
          className={`${inputClass} max-w-xs`}
          value={q}
          onChange={(e) => setQ(e.target.value)}
          placeholder={t('images.search')}
          aria-label={t('images.search')}
          data-testid="image-pick-search"
        />
      </div>
      {list.isPending ? (
        <LoadingState label={t('jobs.form.imagePicker.loading')} />
      ) : list.isError ? (
        <div className="mt-2">
          <ErrorState title={t('jobs.form.imagePicker.loadError')} error={list.error} onRetry={() => void list.refetch()} />
        </div>
      ) : choices.length === 0 ? (
        <p data-testid="image-pick-empty" className="mt-2 text-sm text-slate-600">
          {search.trim() === '' ? t('jobs.form.imagePicker.empty') : t('jobs.form.imagePicker.noMatch')}{' '}
          <span className="text-xs text-slate-500">{t('jobs.form.imagePicker.emptyHint')}</span>
        </p>
      ) : (
        <>
          <ul className="mt-2 max-h-80 divide-y divide-slate-200 overflow-y-auto rounded-md bg-white ring-1 ring-slate-200">
            {choices.map((c) => (
              <ChoiceRow key={`${c.image.id}:${c.tag}`} choice={c} onChoose={onChoose} />
            ))}
          </ul>
          {list.data?.nextCursor && <p className="mt-1 text-xs text-slate-500">{t('jobs.form.imagePicker.more')}</p>}
        </>
      )}
    </div>
  );
}

function ChoiceRow({ choice: c, onChoose }: { choice: ImageChoice; onChoose: (c: ImageChoice) => void }) {
  const { t } = useTranslation();
  const failed = c.state === 'failed';
  return (
    <li data-testid="image-pick-choice" data-image={c.text} data-check={c.state} className={failed ? 'bg-rose-50/60' : undefined}>
      <button type="button" className="flex w-full flex-col gap-1 px-3 py-2 text-left hover:bg-indigo-50" onClick={() => onChoose(c)}>
        <span className="flex flex-wrap items-center gap-2">
          <span className="font-mono text-sm text-slate-900">{c.text}</span>
          <StatusBadge tone={checkTone(c.check?.result)} label={t(`images.result.${c.check?.result ?? 'none'}`)} value={c.state} />
          {failed && <span className="text-xs font-medium text-rose-700">{t('jobs.form.imagePicker.checkFailed')}</span>}
        </span>
        {c.image.description !== '' && <span className="text-xs text-slate-600">{c.image.description}</span>}
        <span className="text-xs text-slate-500">
          {c.image.cudaVersion === '' ? t('images.noCuda') : t('jobs.form.imagePicker.cuda', { version: c.image.cudaVersion })}
          {c.image.architectures.length > 0 && ` · ${c.image.architectures.join(', ')}`}
        </span>
      </button>
    </li>
  );
}

/** Under the field: the chosen tag's last check when it did not find the image, or that it was never checked. */
function ChosenCheck({ choice }: { choice: ImageChoice }) {
  const { t } = useTranslation();
  if (choice.state === 'ok') return null;
  if (choice.state === 'unchecked') {
    return (
      <p data-testid="image-pick-unchecked" className="mt-1 text-xs text-slate-500">
        {t('jobs.form.imagePicker.unchecked', { image: choice.text })}
      </p>
    );
  }
  const check = choice.check!;
  return (
    <p
      role="alert"
      data-testid="image-pick-warning"
      data-check={check.result}
      className="mt-1 rounded-md bg-amber-50 px-2 py-1 text-xs text-amber-900 ring-1 ring-amber-200"
    >
      <span className="block">
        {t('jobs.form.imagePicker.failedWarning', { image: choice.text, result: t(`images.result.${check.result}`) })}
      </span>
      {check.detail && <span className="block text-amber-800">{check.detail}</span>}
    </p>
  );
}
