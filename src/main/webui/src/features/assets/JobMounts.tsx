import { useTranslation } from 'react-i18next';
import type { AssetMount } from '../../api/types';
import { card } from '../../components/common/ui';

/** The datasets and models a job mounts, read-only, with where each appears in its pods. */
export function JobMounts({ mounts }: { mounts: AssetMount[] | undefined }) {
  const { t } = useTranslation();
  if (!mounts || mounts.length === 0) return null;
  return (
    <section className={card} data-testid="job-mounts-view">
      <h2 className="mb-2 text-sm font-semibold text-slate-700">
        {t('assets.mounts.label')} <span className="font-normal text-slate-500">({t('assets.mounts.shown')})</span>
      </h2>
      <ul className="flex flex-col gap-1 text-sm">
        {mounts.map((m) => (
          <li key={m.path} className="font-mono text-xs">
            {m.path} ← {t(`assets.kind.${m.kind}`)} {m.owner ? `${m.owner}/` : ''}
            {m.name}
          </li>
        ))}
      </ul>
    </section>
  );
}
