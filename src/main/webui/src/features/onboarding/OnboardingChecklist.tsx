import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { getOnboarding } from '../../api/onboarding';
import { ErrorState, LoadingState } from '../../components/common/States';
import { card } from '../../components/common/ui';
import { checklistItems, progress } from './checklist';

const onboardingKeys = { all: ['onboarding'] as const };

/**
 * The platform admin's first-run checklist on the overview: change the generated password, create an account with
 * a quota, add people, try a notebook. Each step ticks when the server sees it done; the list goes away when all are.
 */
export function OnboardingChecklist() {
  const { t } = useTranslation();
  const query = useQuery({ queryKey: onboardingKeys.all, queryFn: ({ signal }) => getOnboarding(signal), staleTime: 0 });
  if (query.isPending) return <LoadingState label={t('onboarding.loading')} />;
  if (query.isError) return <ErrorState title={t('onboarding.loadError')} error={query.error} onRetry={() => void query.refetch()} />;
  if (query.data.complete) return null;
  const items = checklistItems(query.data);
  const { done, total } = progress(query.data);
  return (
    <section aria-labelledby="onboarding-heading" data-testid="onboarding" className={`${card} flex flex-col gap-3`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="onboarding-heading" className="text-lg font-semibold text-slate-800">
          {t('onboarding.title')}
        </h2>
        <span data-testid="onboarding-progress" className="text-sm text-slate-500">
          {t('onboarding.progress', { done, total })}
        </span>
      </div>
      <ol className="flex flex-col gap-2">
        {items.map((item) => (
          <li
            key={item.key}
            data-testid="onboarding-step"
            data-step={item.key}
            data-done={item.done}
            className={`flex items-start gap-3 rounded-md px-3 py-2 ${item.next ? 'bg-indigo-50 ring-1 ring-indigo-200' : ''}`}
          >
            <span
              aria-hidden="true"
              className={`mt-0.5 flex h-5 w-5 shrink-0 items-center justify-center rounded-full text-xs font-bold ${
                item.done ? 'bg-emerald-500 text-white' : 'ring-2 ring-slate-300'
              }`}
            >
              {item.done ? '✓' : ''}
            </span>
            <span className="min-w-0 flex-1">
              <span className={`block text-sm font-medium ${item.done ? 'text-slate-500 line-through' : 'text-slate-800'}`}>
                {t(`onboarding.steps.${item.key}.title`)}
                <span className="sr-only"> · {item.done ? t('onboarding.done') : t('onboarding.todo')}</span>
              </span>
              {!item.done && <span className="block text-xs text-slate-500">{t(`onboarding.steps.${item.key}.hint`)}</span>}
            </span>
            {!item.done && (
              <Link
                to={item.link}
                data-testid={`onboarding-go-${item.key}`}
                className="text-sm font-medium text-indigo-700 hover:underline"
              >
                {t(`onboarding.steps.${item.key}.action`)}
              </Link>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
