import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { createWebhook, deleteWebhook, testWebhook, type WebhookScope } from '../../api/notifications';
import type { Webhook, WebhookCreated, WebhookFormat } from '../../api/types';
import { ConfirmButton } from '../../components/common/ConfirmButton';
import { SecretBox } from '../../components/common/CopyButton';
import { DataTable } from '../../components/common/DataTable';
import { Field, FormError } from '../../components/common/Form';
import { StatusBadge } from '../../components/common/StatusBadge';
import { btnPrimary, btnSmall, inputClass } from '../../components/common/ui';
import { formatDateTime } from '../../lib/time';
import { useMyProfile } from '../me/queries';
import { Section } from '../me/Section';
import { notifyKeys, webhookDeliveriesQuery, webhooksQuery } from './queries';
import { deliveryTone, plausibleUrl } from './webhooks';

const FORMATS: readonly WebhookFormat[] = ['generic', 'slack', 'feishu', 'dingtalk'];

function AddWebhookForm({ scope, onCreated }: { scope: WebhookScope; onCreated: (c: WebhookCreated) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [format, setFormat] = useState<WebhookFormat>('generic');
  const add = useMutation({
    mutationFn: () => createWebhook(scope, { name: name.trim(), url: url.trim(), format }),
    onSuccess: (created) => {
      setName('');
      setUrl('');
      onCreated(created);
      void queryClient.invalidateQueries({ queryKey: notifyKeys.webhooks(scope) });
    },
  });
  const urlOk = url.trim() === '' || plausibleUrl(url);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim() !== '' && plausibleUrl(url)) add.mutate();
  };
  return (
    <form onSubmit={submit} className="grid gap-3 sm:grid-cols-3" data-testid="webhook-form">
      <Field label={t('webhooks.name')}>
        <input
          data-testid="webhook-name"
          className={inputClass}
          value={name}
          required
          maxLength={80}
          onChange={(e) => setName(e.target.value)}
        />
      </Field>
      <Field label={t('webhooks.url')} hint={t('webhooks.urlHint')} error={urlOk ? undefined : t('webhooks.urlInvalid')}>
        <input
          data-testid="webhook-url"
          className={`${inputClass} font-mono`}
          value={url}
          required
          placeholder="https://"
          onChange={(e) => setUrl(e.target.value)}
        />
      </Field>
      <Field label={t('webhooks.format')}>
        <select
          data-testid="webhook-format"
          className={inputClass}
          value={format}
          onChange={(e) => setFormat(e.target.value as WebhookFormat)}
        >
          {FORMATS.map((f) => (
            <option key={f} value={f}>
              {t(`webhooks.formats.${f}`)}
            </option>
          ))}
        </select>
      </Field>
      {add.isError && (
        <div className="sm:col-span-3">
          <FormError error={add.error} />
        </div>
      )}
      <div className="sm:col-span-3">
        <button type="submit" data-testid="webhook-add" className={btnPrimary} disabled={add.isPending || !urlOk}>
          {t('webhooks.add')}
        </button>
      </div>
    </form>
  );
}

/** The delivery log of one webhook: each event's state, attempts, last HTTP status and time. */
function DeliveryLog({ scope, webhook }: { scope: WebhookScope; webhook: Webhook }) {
  const { t, i18n } = useTranslation();
  const log = useQuery(webhookDeliveriesQuery(scope, webhook.id));
  return (
    <div className="flex flex-col gap-2" data-testid="webhook-log">
      <h3 className="text-sm font-medium text-slate-800">{t('webhooks.logTitle', { name: webhook.name })}</h3>
      <DataTable
        query={log}
        rows={log.data?.items ?? []}
        columns={[
          { id: 'at', header: t('webhooks.logTime'), cell: (d) => formatDateTime(d.createdAt, i18n.language) },
          { id: 'kind', header: t('webhooks.logKind'), cell: (d) => t(`notificationSettings.kinds.${d.kind}`, { defaultValue: d.kind }) },
          {
            id: 'state',
            header: t('webhooks.logState'),
            cell: (d) => <StatusBadge tone={deliveryTone(d.state)} label={t(`webhooks.states.${d.state}`)} value={d.state} />,
          },
          { id: 'attempts', header: t('webhooks.logAttempts'), cell: (d) => d.attempts, className: 'tabular-nums' },
          {
            id: 'status',
            header: t('webhooks.logStatus'),
            cell: (d) => d.tries[0]?.statusCode ?? t('webhooks.noAnswer'),
            className: 'tabular-nums',
            testId: 'webhook-log-status',
          },
          {
            id: 'latency',
            header: t('webhooks.logLatency'),
            cell: (d) => (d.tries[0] ? t('webhooks.ms', { value: d.tries[0].latencyMs }) : ''),
            className: 'tabular-nums',
          },
          {
            id: 'next',
            header: t('webhooks.logNext'),
            cell: (d) => (d.nextAttemptAt ? formatDateTime(d.nextAttemptAt, i18n.language) : (d.lastError ?? '')),
          },
        ]}
        rowKey={(d) => String(d.id)}
        rowProps={(d) => ({ 'data-testid': 'webhook-log-row', 'data-state': d.state })}
        empty={{ title: t('webhooks.logEmpty') }}
        errorTitle={t('webhooks.logError')}
        variant="plain"
      />
    </div>
  );
}

function WebhookList({ scope }: { scope: WebhookScope }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const list = useQuery(webhooksQuery(scope));
  const [created, setCreated] = useState<WebhookCreated | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: notifyKeys.webhooks(scope) });
  const remove = useMutation({
    mutationFn: (id: string) => deleteWebhook(scope, id),
    onSuccess: (_v, id) => {
      if (open === id) setOpen(null);
      if (created?.webhook.id === id) setCreated(null);
    },
    onSettled: refresh,
  });
  const test = useMutation({
    mutationFn: (id: string) => testWebhook(scope, id),
    onSuccess: (_d, id) => {
      setOpen(id);
      void queryClient.invalidateQueries({ queryKey: notifyKeys.deliveries(scope, id) });
      refresh();
    },
  });
  const shown = list.data?.items.find((w) => w.id === open) ?? null;
  return (
    <div className="flex flex-col gap-4">
      <AddWebhookForm scope={scope} onCreated={setCreated} />
      {created && (
        <SecretBox value={created.secret} warning={t('webhooks.secretOnce', { name: created.webhook.name })} testId="webhook-secret" />
      )}
      {remove.isError && <FormError error={remove.error} />}
      {test.isError && <FormError error={test.error} />}
      <DataTable
        query={list}
        rows={list.data?.items ?? []}
        columns={[
          { id: 'name', header: t('webhooks.name'), cell: (w) => w.name },
          { id: 'format', header: t('webhooks.format'), cell: (w) => t(`webhooks.formats.${w.format}`) },
          { id: 'url', header: t('webhooks.url'), cell: (w) => w.url, className: 'font-mono text-xs' },
          {
            id: 'last',
            header: t('webhooks.last'),
            cell: (w) =>
              w.lastState ? (
                <span className="inline-flex items-center gap-2">
                  <StatusBadge tone={deliveryTone(w.lastState)} label={t(`webhooks.states.${w.lastState}`)} value={w.lastState} />
                  {w.lastStatusCode !== null && <span className="tabular-nums">HTTP {w.lastStatusCode}</span>}
                  {w.lastAttemptAt && <span className="text-xs text-slate-500">{formatDateTime(w.lastAttemptAt, i18n.language)}</span>}
                </span>
              ) : (
                t('webhooks.never')
              ),
          },
          {
            id: 'actions',
            className: 'text-right',
            cell: (w) => (
              <div className="flex justify-end gap-2">
                <button
                  type="button"
                  data-testid="webhook-test"
                  className={btnSmall}
                  disabled={test.isPending}
                  onClick={() => test.mutate(w.id)}
                >
                  {t('webhooks.test')}
                </button>
                <button
                  type="button"
                  data-testid="webhook-show-log"
                  className={btnSmall}
                  onClick={() => setOpen(open === w.id ? null : w.id)}
                >
                  {open === w.id ? t('webhooks.hideLog') : t('webhooks.showLog')}
                </button>
                <ConfirmButton testId="webhook-delete" disabled={remove.isPending} onConfirm={() => remove.mutate(w.id)}>
                  {t('common.delete')}
                </ConfirmButton>
              </div>
            ),
          },
        ]}
        rowKey={(w) => w.id}
        rowProps={() => ({ 'data-testid': 'webhook-row' })}
        empty={{ title: t('webhooks.empty') }}
        errorTitle={t('webhooks.loadError')}
        variant="plain"
      />
      {shown && <DeliveryLog key={shown.id} scope={scope} webhook={shown} />}
    </div>
  );
}

/** Webhooks: one's own, and those of the accounts one administers. */
export function WebhooksSection() {
  const { t } = useTranslation();
  const profile = useMyProfile();
  const [owner, setOwner] = useState('');
  const administered = (profile.data?.accounts ?? []).filter((a) => a.role === 'admin');
  const scope: WebhookScope = owner === '' ? { kind: 'me' } : { kind: 'account', slug: owner };
  return (
    <Section title={t('webhooks.title')} testId="webhooks">
      <p className="text-sm text-slate-600">{t('webhooks.intro')}</p>
      {administered.length > 0 && (
        <Field label={t('webhooks.owner')}>
          <select data-testid="webhook-owner" className={`${inputClass} max-w-64`} value={owner} onChange={(e) => setOwner(e.target.value)}>
            <option value="">{t('webhooks.mine')}</option>
            {administered.map((a) => (
              <option key={a.slug} value={a.slug}>
                {t('webhooks.ofAccount', { name: a.name })}
              </option>
            ))}
          </select>
        </Field>
      )}
      <WebhookList key={owner} scope={scope} />
    </Section>
  );
}
