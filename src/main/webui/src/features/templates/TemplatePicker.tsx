import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { describeError } from '../../components/common/errorText';
import { card } from '../../components/common/ui';
import { templateListQuery } from './queries';
import { templateUseLink } from './templateCard';
import { templateText } from './templateText';

/**
 * A compact row of templates above the new-job form; picking one opens the template form. A failure to load
 * them only shows a short note: the plain form below still works.
 */
export function TemplatePicker() {
  const { t, i18n } = useTranslation();
  const query = useQuery(templateListQuery());
  const items = query.data?.items ?? [];
  return (
    <section data-testid="template-picker" aria-labelledby="template-picker-title" className={`${card} flex flex-col gap-3`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <div>
          <h2 id="template-picker-title" className="text-sm font-semibold text-slate-900">
            {t('templates.picker.title')}
          </h2>
          <p className="text-xs text-slate-500">{t('templates.picker.hint')}</p>
        </div>
        <Link to="/templates" data-testid="template-picker-all" className="text-sm font-medium text-indigo-700 hover:underline">
          {t('templates.picker.all')}
        </Link>
      </div>
      {query.isPending ? (
        <p role="status" className="text-sm text-slate-500">
          {t('common.loading')}
        </p>
      ) : query.isError ? (
        <p role="alert" data-testid="template-picker-error" className="text-sm text-rose-700">
          {t('templates.picker.loadError')} <span className="text-rose-600">({describeError(query.error, t('common.unexpected'))})</span>{' '}
          <button type="button" className="font-medium underline" onClick={() => void query.refetch()}>
            {t('common.retry')}
          </button>
        </p>
      ) : items.length === 0 ? (
        <p data-testid="template-picker-empty" className="text-sm text-slate-500">
          {t('templates.picker.empty')}
        </p>
      ) : (
        <ul className="flex flex-wrap gap-2">
          {items.map((tpl) => (
            <li key={tpl.id}>
              <Link
                to={templateUseLink(tpl.id)}
                data-testid={`template-pick-${tpl.id}`}
                title={templateText(tpl, i18n.language).description || undefined}
                className="flex flex-col rounded-lg px-3 py-2 text-left ring-1 ring-slate-200 hover:bg-indigo-50 hover:ring-indigo-300"
              >
                <span className="text-sm font-medium text-slate-800">{templateText(tpl, i18n.language).name}</span>
                <span className="text-xs text-slate-500">{t(`jobs.kinds.${tpl.kind}`, { defaultValue: tpl.kind })}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
