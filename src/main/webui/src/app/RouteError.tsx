import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';

/** Router-level error element (errors thrown while matching or rendering a route). */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : t('common.unexpected');
  return (
    <div role="alert" className="mx-auto mt-16 max-w-lg rounded-xl border border-rose-200 bg-white p-6 shadow-sm">
      <h1 className="text-lg font-semibold text-rose-800">{t('common.errorTitle')}</h1>
      <p className="mt-2 text-sm text-slate-600">{message}</p>
      <a href="/" className="mt-4 inline-block text-sm font-medium text-indigo-600 hover:underline">
        {t('common.backHome')}
      </a>
    </div>
  );
}
