import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { templateListQuery } from '../templates/queries';
import { templateText } from '../templates/templateText';

/** How many templates an empty Jobs page offers. */
export const STARTER_COUNT = 6;

/**
 * What an empty Jobs page offers: the built-in templates first, each opening its form. Shows nothing while they load
 * or when they cannot be read (the page's own "new job" link is still there).
 */
export function StarterTemplates() {
  const { t, i18n } = useTranslation();
  const query = useQuery(templateListQuery(''));
  const items = (query.data?.items ?? [])
    .slice()
    .sort((a, b) => Number(b.builtin) - Number(a.builtin))
    .slice(0, STARTER_COUNT);
  if (items.length === 0) return null;
  return (
    <div data-testid="starter-templates" className="mt-4 flex flex-col gap-2 text-left">
      <p className="text-sm font-medium text-slate-700">{t('onboarding.startFromTemplate')}</p>
      <ul className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
        {items.map((tpl) => (
          <li key={tpl.id}>
            <Link
              to={`/jobs/new?template=${encodeURIComponent(tpl.id)}`}
              data-testid="starter-template"
              data-id={tpl.id}
              className="block h-full rounded-lg border border-slate-200 bg-white p-3 hover:border-indigo-300 hover:bg-indigo-50/40"
            >
              <span className="block text-sm font-medium text-indigo-700">{templateText(tpl, i18n.language).name}</span>
              <span className="line-clamp-2 block text-xs text-slate-500">{templateText(tpl, i18n.language).description}</span>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
