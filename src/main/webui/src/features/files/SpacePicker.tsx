import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { FileSpace } from '../../api/types';
import { ResourceBar } from '../../components/common/ResourceBar';
import { folderRoute } from '../../lib/filePaths';
import { useSpaceLabel } from './spaceLabel';
import { formatBytes } from '../../lib/units';
import { formatCount } from '../../lib/numbers';

function Usage({
  used,
  max,
  label,
  barLabel,
  text,
}: {
  used: number;
  max: number;
  label: string;
  barLabel: string;
  text: (n: number) => string;
}) {
  const { t } = useTranslation();
  return (
    <div className="mt-1">
      <div className="flex justify-between text-xs text-slate-500">
        <span>{label}</span>
        <span>
          {max < 0 ? t('files.usage.unlimited', { used: text(used) }) : t('files.usage.of', { used: text(used), max: text(max) })}
        </span>
      </div>
      {max >= 0 && <ResourceBar used={used} total={max} label={barLabel} size="sm" />}
    </div>
  );
}

/** Each space the caller may see, with its usage against its quota in bytes and in files. */
export function SpacePicker({ spaces, current }: { spaces: FileSpace[]; current: string }) {
  const { t, i18n } = useTranslation();
  const label = useSpaceLabel();
  const count = (n: number) => formatCount(n, i18n.language);
  return (
    <ul data-testid="space-picker" className="flex flex-col gap-2">
      {spaces.map((s) => (
        <li key={s.name}>
          <Link
            to={folderRoute(s.name, '/')}
            data-testid={`space-${s.name}`}
            aria-current={s.name === current ? 'page' : undefined}
            className={`block rounded-lg border p-3 ${s.name === current ? 'border-indigo-400 bg-indigo-50' : 'border-slate-200 bg-white hover:bg-slate-50'}`}
          >
            <div className="flex items-center justify-between gap-2">
              <span className="font-medium text-slate-800">{label(s.name)}</span>
              {s.access === 'ro' && (
                <span data-testid="space-readonly" className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-600">
                  {t('files.readOnly')}
                </span>
              )}
            </div>
            <Usage
              used={s.usedBytes}
              max={s.maxBytes}
              label={t('files.usage.bytes')}
              barLabel={`${label(s.name)}: ${t('files.usage.bytes')}`}
              text={formatBytes}
            />
            <Usage
              used={s.usedFiles}
              max={s.maxFiles}
              label={t('files.usage.files')}
              barLabel={`${label(s.name)}: ${t('files.usage.files')}`}
              text={count}
            />
          </Link>
        </li>
      ))}
    </ul>
  );
}
