import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { putMyNotificationPreferences } from '../../api/notifications';
import type { NotificationPreferences } from '../../api/types';
import { PageHeader } from '../../app/PageHeader';
import { Field, FormError, SuccessNote } from '../../components/common/Form';
import { ErrorState, LoadingState } from '../../components/common/States';
import { btnPrimary, inputClass, tableWrap, td, th } from '../../components/common/ui';
import { Section } from '../me/Section';
import { cellKey, changesBetween, gridOf, validWaiting, WAITING_MAX, WAITING_MIN } from './preferences';
import { myNotificationPreferencesQuery, notifyKeys } from './queries';
import { WebhooksSection } from './WebhooksSection';

function PreferencesForm({ saved }: { saved: NotificationPreferences }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [grid, setGrid] = useState(() => gridOf(saved.preferences));
  const [waiting, setWaiting] = useState(String(saved.waitingThresholdMinutes));
  const minutes = validWaiting(waiting);
  const save = useMutation({
    mutationFn: putMyNotificationPreferences,
    onSuccess: (next) => {
      queryClient.setQueryData(notifyKeys.preferences(), next);
      setGrid(gridOf(next.preferences));
      setWaiting(String(next.waitingThresholdMinutes));
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (minutes === null) return;
    save.mutate({ preferences: changesBetween(gridOf(saved.preferences), grid), waitingThresholdMinutes: minutes });
  };
  const defaults = gridOf(saved.preferences.map((p) => ({ ...p, enabled: p.byDefault })));
  return (
    <form onSubmit={submit} className="flex flex-col gap-4" data-testid="preferences-form">
      {!saved.mailEnabled && (
        <p data-testid="mail-off" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-800">
          {t('notificationSettings.mailOff')}
        </p>
      )}
      <div className={tableWrap}>
        <table className="min-w-full divide-y divide-slate-200">
          <thead>
            <tr>
              <th className={th}>{t('notificationSettings.kind')}</th>
              {saved.channels.map((c) => (
                <th key={c} className={`${th} text-center`}>
                  {t(`notificationSettings.channels.${c}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {saved.kinds.map((kind) => (
              <tr key={kind} data-testid={`pref-row-${kind}`}>
                <td className={td}>{t(`notificationSettings.kinds.${kind}`, { defaultValue: kind })}</td>
                {saved.channels.map((c) => {
                  const key = cellKey(kind, c);
                  return (
                    <td key={c} className={`${td} text-center`}>
                      <input
                        type="checkbox"
                        data-testid={`pref-${kind}-${c}`}
                        aria-label={`${t(`notificationSettings.kinds.${kind}`, { defaultValue: kind })}: ${t(`notificationSettings.channels.${c}`)}`}
                        title={defaults[key] ? t('notificationSettings.defaultOn') : t('notificationSettings.defaultOff')}
                        checked={grid[key] ?? false}
                        onChange={(e) => setGrid({ ...grid, [key]: e.target.checked })}
                      />
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Field
        label={t('notificationSettings.waiting')}
        hint={t('notificationSettings.waitingHint', { min: WAITING_MIN, max: WAITING_MAX })}
        error={minutes === null ? t('notificationSettings.waitingInvalid', { min: WAITING_MIN, max: WAITING_MAX }) : undefined}
      >
        <div className="flex items-center gap-2">
          <input
            data-testid="pref-waiting"
            className={`${inputClass} max-w-32`}
            inputMode="numeric"
            value={waiting}
            onChange={(e) => setWaiting(e.target.value)}
          />
          <span className="text-sm text-slate-500">{t('notificationSettings.minutes')}</span>
        </div>
      </Field>
      {save.isError && <FormError error={save.error} />}
      {save.isSuccess && <SuccessNote testId="prefs-saved">{t('notificationSettings.saved')}</SuccessNote>}
      <div>
        <button type="submit" data-testid="prefs-save" className={btnPrimary} disabled={save.isPending || minutes === null}>
          {t('common.save')}
        </button>
      </div>
    </form>
  );
}

/** Which kinds of notification reach the user on which channel, and when a waiting job is worth a word. */
export function NotificationSettingsPage() {
  const { t } = useTranslation();
  const prefs = useQuery(myNotificationPreferencesQuery());
  return (
    <div className="flex flex-col gap-6">
      <PageHeader title={t('notificationSettings.title')} subtitle={t('notificationSettings.subtitle')} />
      <Section title={t('notificationSettings.preferences')} testId="preferences">
        {prefs.isPending ? (
          <LoadingState />
        ) : prefs.isError ? (
          <ErrorState title={t('notificationSettings.loadError')} error={prefs.error} onRetry={() => void prefs.refetch()} />
        ) : (
          <PreferencesForm key={JSON.stringify(prefs.data)} saved={prefs.data} />
        )}
      </Section>
      <WebhooksSection />
    </div>
  );
}
