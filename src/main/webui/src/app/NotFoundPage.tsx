import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';

export function NotFoundPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <div data-testid="not-found" className="mx-auto mt-12 max-w-md text-center">
      <p className="text-5xl font-bold text-slate-300">404</p>
      <h1 className="mt-2 text-xl font-semibold text-slate-900">{t('notFound.title')}</h1>
      <p className="mt-1 text-sm text-slate-500">{t('notFound.detail', { path: pathname })}</p>
      <Link to="/" className="mt-4 inline-block text-sm font-medium text-indigo-600 hover:underline">
        {t('common.backHome')}
      </Link>
    </div>
  );
}
