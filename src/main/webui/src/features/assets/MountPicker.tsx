import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { btnSecondary, btnSmall, inputClass } from '../../components/common/ui';
import { formatBytes } from '../../lib/units';
import { useMyProfile } from '../me/queries';
import { mountLineFor } from './assetForm';
import { assetsQuery } from './queries';

/** "Add dataset/model": picks one of the entries the caller sees and appends its mount line. */
export function MountPicker({ text, onChange }: { text: string; onChange: (text: string) => void }) {
  const { t } = useTranslation();
  const me = useMyProfile();
  const list = useQuery(assetsQuery({ limit: 200 }));
  const [chosen, setChosen] = useState('');
  const items = list.data?.items ?? [];
  if (list.isError) return null;
  if (!list.isPending && items.length === 0) {
    return <p className="mt-1 text-xs text-slate-500">{t('assets.mounts.none')}</p>;
  }
  const add = () => {
    const a = items.find((x) => x.id === chosen);
    if (!a) return;
    const line = mountLineFor(a, a.owner === me.data?.username);
    onChange(text.trim() === '' ? line : `${text.replace(/\n+$/, '')}\n${line}`);
    setChosen('');
  };
  return (
    <div className="mt-1 flex gap-2">
      <select
        className={`${inputClass} max-w-md`}
        value={chosen}
        onChange={(e) => setChosen(e.target.value)}
        disabled={list.isPending}
        data-testid="mount-pick"
        aria-label={t('assets.mounts.pick')}
      >
        <option value="">{t('assets.mounts.pick')}</option>
        {items.map((a) => (
          <option key={a.id} value={a.id}>
            {t(`assets.kind.${a.kind}`)}: {a.owner}/{a.name} ({formatBytes(a.sizeBytes)})
          </option>
        ))}
      </select>
      <button type="button" className={`${btnSecondary} ${btnSmall}`} onClick={add} disabled={chosen === ''} data-testid="mount-add">
        {t('assets.mounts.add')}
      </button>
    </div>
  );
}
