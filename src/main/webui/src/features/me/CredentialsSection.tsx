import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { createMyCredential, deleteMyCredential, replaceMyCredential } from '../../api/credentials';
import type { CredentialKind } from '../../api/types';
import { ConfirmButton } from '../../components/common/ConfirmButton';
import { DataTable } from '../../components/common/DataTable';
import { Field, FormError } from '../../components/common/Form';
import { btnPrimary, btnSmall, inputClass } from '../../components/common/ui';
import { formatDateTime } from '../../lib/time';
import { meKeys, myCredentialsQuery } from './queries';
import { Section } from './Section';

const CREDENTIAL_KINDS: readonly CredentialKind[] = ['huggingface', 'modelscope', 'wandb', 'registry', 'generic'];

/** The anchor of the credentials section (/profile#credentials). */
const CREDENTIALS_ANCHOR = 'credentials';

function AddCredentialForm() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [kind, setKind] = useState<CredentialKind>('huggingface');
  const [host, setHost] = useState('');
  const [username, setUsername] = useState('');
  const [description, setDescription] = useState('');
  const [value, setValue] = useState('');
  const add = useMutation({
    mutationFn: createMyCredential,
    onSuccess: () => {
      setName('');
      setValue('');
      setDescription('');
      void queryClient.invalidateQueries({ queryKey: meKeys.credentials() });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const registry = kind === 'registry' ? { host: host.trim(), username: username.trim() } : {};
    add.mutate({ name: name.trim(), kind, value, ...registry, ...(description.trim() ? { description: description.trim() } : {}) });
  };
  return (
    <form onSubmit={submit} className="grid gap-3 sm:grid-cols-2" data-testid="credential-form">
      <Field label={t('credentials.name')} hint={t('credentials.nameHint')}>
        <input data-testid="credential-name" className={inputClass} value={name} required onChange={(e) => setName(e.target.value)} />
      </Field>
      <Field label={t('credentials.kind')}>
        <select
          data-testid="credential-kind"
          className={inputClass}
          value={kind}
          onChange={(e) => setKind(e.target.value as CredentialKind)}
        >
          {CREDENTIAL_KINDS.map((k) => (
            <option key={k} value={k}>
              {t(`credentials.kinds.${k}`)}
            </option>
          ))}
        </select>
      </Field>
      {kind === 'registry' && (
        <>
          <Field label={t('credentials.host')}>
            <input data-testid="credential-host" className={inputClass} value={host} required onChange={(e) => setHost(e.target.value)} />
          </Field>
          <Field label={t('credentials.username')}>
            <input
              data-testid="credential-username"
              className={inputClass}
              value={username}
              required
              onChange={(e) => setUsername(e.target.value)}
            />
          </Field>
        </>
      )}
      <Field label={t('credentials.description')}>
        <input className={inputClass} value={description} onChange={(e) => setDescription(e.target.value)} />
      </Field>
      <Field label={t('credentials.value')} hint={t('credentials.valueHint')}>
        <input
          data-testid="credential-value"
          type="password"
          autoComplete="off"
          className={`${inputClass} font-mono`}
          value={value}
          required
          onChange={(e) => setValue(e.target.value)}
        />
      </Field>
      {add.isError && (
        <div className="sm:col-span-2">
          <FormError error={add.error} />
        </div>
      )}
      <div className="sm:col-span-2">
        <button type="submit" data-testid="credential-add" className={btnPrimary} disabled={add.isPending}>
          {t('credentials.add')}
        </button>
      </div>
    </form>
  );
}

/** Replacing a value: typed into a password input, sent, never shown. */
function ReplaceValue({ name }: { name: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [value, setValue] = useState<string | null>(null);
  const replace = useMutation({
    mutationFn: (v: string) => replaceMyCredential(name, { value: v }),
    onSuccess: () => {
      setValue(null);
      void queryClient.invalidateQueries({ queryKey: meKeys.credentials() });
    },
  });
  if (value === null) {
    return (
      <button type="button" data-testid="credential-replace" className={btnSmall} onClick={() => setValue('')}>
        {t('credentials.replace')}
      </button>
    );
  }
  return (
    <form
      className="flex items-center gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (value !== '') replace.mutate(value);
      }}
    >
      <input
        data-testid="credential-new-value"
        type="password"
        autoComplete="off"
        aria-label={t('credentials.newValue')}
        className={`${inputClass} font-mono`}
        value={value}
        onChange={(e) => setValue(e.target.value)}
      />
      <button type="submit" className={btnSmall} disabled={replace.isPending || value === ''}>
        {t('common.save')}
      </button>
      {replace.isError && <FormError error={replace.error} />}
    </form>
  );
}

/** One's credentials: listed without values, added, replaced, deleted. */
export function CredentialsSection() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const list = useQuery(myCredentialsQuery());
  const remove = useMutation({
    mutationFn: deleteMyCredential,
    onSettled: () => void queryClient.invalidateQueries({ queryKey: meKeys.credentials() }),
  });
  const when = (at?: string | null) => (at ? formatDateTime(at, i18n.language) : t('profile.never'));
  return (
    <Section title={t('credentials.title')} testId="credentials-section" id={CREDENTIALS_ANCHOR}>
      <p className="text-sm text-slate-600">{t('credentials.intro')}</p>
      <AddCredentialForm />
      {remove.isError && <FormError error={remove.error} />}
      <DataTable
        query={list}
        rows={list.data?.items ?? []}
        columns={[
          { id: 'name', header: t('credentials.name'), cell: (c) => c.name, className: 'font-mono' },
          {
            id: 'kind',
            header: t('credentials.kind'),
            cell: (c) =>
              c.kind === 'registry'
                ? `${t('credentials.kinds.registry')} · ${c.username ?? ''}@${c.host ?? ''}`
                : t(`credentials.kinds.${c.kind}`),
          },
          { id: 'description', header: t('credentials.description'), cell: (c) => c.description ?? '' },
          { id: 'updated', header: t('credentials.updated'), cell: (c) => when(c.updatedAt) },
          { id: 'lastUsed', header: t('profile.lastUsed'), cell: (c) => when(c.lastUsedAt) },
          {
            id: 'actions',
            className: 'text-right',
            cell: (c) => (
              <div className="flex justify-end gap-2">
                <ReplaceValue name={c.name} />
                <ConfirmButton testId="credential-delete" disabled={remove.isPending} onConfirm={() => remove.mutate(c.name)}>
                  {t('common.delete')}
                </ConfirmButton>
              </div>
            ),
          },
        ]}
        rowKey={(c) => c.name}
        rowProps={() => ({ 'data-testid': 'credential-row' })}
        empty={{ title: t('credentials.empty') }}
        errorTitle={t('credentials.loadError')}
        variant="plain"
      />
    </Section>
  );
}
