import { useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { addMySshKey, changeMyPassword, createMyToken, deleteMySshKey, revokeMyToken, updateMyProfile } from '../../api/me';
import { isApiError } from '../../api/errors';
import type { CreatedAccessToken, Me } from '../../api/types';
import { PageHeader } from '../../app/PageHeader';
import { ConfirmButton } from '../../components/common/ConfirmButton';
import { SecretBox } from '../../components/common/CopyButton';
import { Field, FormError, SuccessNote } from '../../components/common/Form';
import { DataTable } from '../../components/common/DataTable';
import { ErrorState, LoadingState } from '../../components/common/States';
import { btnPrimary, inputClass } from '../../components/common/ui';
import { formatDateTime, isPast, localInputToIso } from '../../lib/time';
import { authKeys } from '../auth/session';
import { ClientSection } from './ClientSection';
import { CredentialsSection } from './CredentialsSection';
import { meKeys, myProfileQuery, mySshKeysQuery, myTokensQuery } from './queries';
import { Section } from './Section';

/** The anchor of the SSH keys section (linked from a job's SSH panel). */
export const SSH_KEYS_ANCHOR = 'ssh-keys';

function ProfileForm({ me }: { me: Me }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [displayName, setDisplayName] = useState(me.displayName);
  const [email, setEmail] = useState(me.email ?? '');
  const mutation = useMutation({
    mutationFn: updateMyProfile,
    onSuccess: (updated) => {
      queryClient.setQueryData(meKeys.profile(), updated);
      void queryClient.invalidateQueries({ queryKey: authKeys.me() });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    mutation.mutate({ displayName: displayName.trim(), email: email.trim() });
  };
  return (
    <form onSubmit={submit} className="grid gap-4 sm:grid-cols-2">
      <Field label={t('profile.username')}>
        <input className={inputClass} value={me.username} disabled readOnly />
      </Field>
      <Field label={t('profile.uid')}>
        <input className={inputClass} value={String(me.uid)} disabled readOnly />
      </Field>
      <Field label={t('profile.displayName')}>
        <input
          data-testid="profile-displayname"
          className={inputClass}
          value={displayName}
          required
          onChange={(e) => setDisplayName(e.target.value)}
        />
      </Field>
      <Field label={t('profile.email')}>
        <input data-testid="profile-email" type="email" className={inputClass} value={email} onChange={(e) => setEmail(e.target.value)} />
      </Field>
      <div className="flex flex-col gap-2 sm:col-span-2">
        {mutation.isError && <FormError error={mutation.error} />}
        {mutation.isSuccess && <SuccessNote>{t('profile.saved')}</SuccessNote>}
        <div>
          <button type="submit" data-testid="profile-save" className={btnPrimary} disabled={mutation.isPending}>
            {t('common.save')}
          </button>
        </div>
      </div>
    </form>
  );
}

function PasswordForm() {
  const { t } = useTranslation();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const mutation = useMutation({
    mutationFn: changeMyPassword,
    onSuccess: () => {
      setCurrent('');
      setNext('');
      setConfirm('');
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (next !== confirm) {
      setMismatch(true);
      return;
    }
    setMismatch(false);
    mutation.mutate({ currentPassword: current, newPassword: next });
  };
  const wrongCurrent = isApiError(mutation.error) && mutation.error.code === 'WrongPassword';
  return (
    <form onSubmit={submit} className="grid gap-4 sm:grid-cols-3">
      <Field label={t('profile.currentPassword')}>
        <input
          type="password"
          autoComplete="current-password"
          className={inputClass}
          value={current}
          required
          onChange={(e) => setCurrent(e.target.value)}
        />
      </Field>
      <Field label={t('profile.newPassword')}>
        <input
          type="password"
          autoComplete="new-password"
          className={inputClass}
          value={next}
          required
          onChange={(e) => setNext(e.target.value)}
        />
      </Field>
      <Field label={t('profile.confirmPassword')} error={mismatch ? t('profile.passwordMismatch') : undefined}>
        <input
          type="password"
          autoComplete="new-password"
          className={inputClass}
          value={confirm}
          required
          onChange={(e) => setConfirm(e.target.value)}
        />
      </Field>
      <div className="flex flex-col gap-2 sm:col-span-3">
        {mutation.isError && <FormError error={mutation.error} message={wrongCurrent ? t('profile.wrongPassword') : undefined} />}
        {mutation.isSuccess && <SuccessNote>{t('profile.passwordChanged')}</SuccessNote>}
        <div>
          <button type="submit" className={btnPrimary} disabled={mutation.isPending}>
            {t('profile.changePassword')}
          </button>
        </div>
      </div>
    </form>
  );
}

function TokensSection() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const tokens = useQuery(myTokensQuery());
  const [name, setName] = useState('');
  const [expires, setExpires] = useState('');
  const [created, setCreated] = useState<CreatedAccessToken | null>(null);
  const create = useMutation({
    mutationFn: createMyToken,
    onSuccess: (tok) => {
      setCreated(tok);
      setName('');
      setExpires('');
      void queryClient.invalidateQueries({ queryKey: meKeys.tokens() });
    },
  });
  const revoke = useMutation({
    mutationFn: revokeMyToken,
    onSettled: () => void queryClient.invalidateQueries({ queryKey: meKeys.tokens() }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const expiresAt = localInputToIso(expires);
    create.mutate(expiresAt ? { name: name.trim(), expiresAt } : { name: name.trim() });
  };
  return (
    <Section title={t('profile.tokens')} testId="tokens-section">
      <p className="text-sm text-slate-500">{t('profile.tokensHint')}</p>
      <form onSubmit={submit} className="flex flex-wrap items-end gap-3">
        <Field label={t('profile.tokenName')} className="min-w-56 flex-1">
          <input data-testid="token-name" className={inputClass} value={name} required onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field label={t('profile.tokenExpires')} hint={t('profile.tokenNoExpiry')}>
          <input
            data-testid="token-expires"
            type="date"
            className={inputClass}
            value={expires}
            onChange={(e) => setExpires(e.target.value)}
          />
        </Field>
        <button type="submit" data-testid="token-create" className={btnPrimary} disabled={create.isPending}>
          {t('profile.createToken')}
        </button>
      </form>
      {create.isError && <FormError error={create.error} />}
      {created && (
        <div className="flex flex-col gap-2">
          <SecretBox value={created.token} warning={t('profile.tokenOnce', { name: created.name })} testId="token-secret" />
          <div>
            <button type="button" className="text-sm text-slate-500 hover:underline" onClick={() => setCreated(null)}>
              {t('common.dismiss')}
            </button>
          </div>
        </div>
      )}
      {revoke.isError && <FormError error={revoke.error} />}
      <DataTable
        query={tokens}
        rows={tokens.data?.items ?? []}
        columns={[
          { id: 'name', header: t('profile.tokenName'), cell: (tok) => tok.name },
          { id: 'prefix', header: t('profile.tokenPrefix'), cell: (tok) => `${tok.prefix}…`, className: 'font-mono' },
          { id: 'created', header: t('common.created'), cell: (tok) => formatDateTime(tok.createdAt, i18n.language) },
          {
            id: 'expires',
            header: t('profile.tokenExpires'),
            cell: (tok) =>
              tok.expiresAt === null ? (
                t('profile.never')
              ) : (
                <span className={isPast(tok.expiresAt) ? 'text-rose-700' : undefined}>
                  {formatDateTime(tok.expiresAt, i18n.language)}
                  {isPast(tok.expiresAt) && ` (${t('profile.expired')})`}
                </span>
              ),
          },
          {
            id: 'lastUsed',
            header: t('profile.lastUsed'),
            cell: (tok) => (tok.lastUsedAt ? formatDateTime(tok.lastUsedAt, i18n.language) : t('profile.never')),
          },
          {
            id: 'revoke',
            className: 'text-right',
            cell: (tok) => (
              <ConfirmButton testId="token-revoke" disabled={revoke.isPending} onConfirm={() => revoke.mutate(tok.id)}>
                {t('profile.revoke')}
              </ConfirmButton>
            ),
          },
        ]}
        rowKey={(tok) => tok.id}
        rowProps={() => ({ 'data-testid': 'token-row' })}
        empty={{ title: t('profile.noTokens') }}
        errorTitle={t('profile.tokensLoadError')}
        variant="plain"
      />
    </Section>
  );
}

function SshKeysSection() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const keys = useQuery(mySshKeysQuery());
  const [name, setName] = useState('');
  const [publicKey, setPublicKey] = useState('');
  const add = useMutation({
    mutationFn: addMySshKey,
    onSuccess: () => {
      setName('');
      setPublicKey('');
      void queryClient.invalidateQueries({ queryKey: meKeys.sshKeys() });
    },
  });
  const remove = useMutation({
    mutationFn: deleteMySshKey,
    onSettled: () => void queryClient.invalidateQueries({ queryKey: meKeys.sshKeys() }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    add.mutate({ name: name.trim(), publicKey: publicKey.trim() });
  };
  const invalidKey = isApiError(add.error) && add.error.code === 'InvalidSshKey' ? add.error : null;
  return (
    <Section title={t('profile.sshKeys')} testId="ssh-section" id={SSH_KEYS_ANCHOR}>
      <form onSubmit={submit} className="flex flex-col gap-3">
        <Field label={t('profile.sshKeyName')}>
          <input data-testid="ssh-name" className={inputClass} value={name} required onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field
          label={t('profile.sshPublicKey')}
          hint={t('profile.sshPublicKeyHint')}
          error={invalidKey ? t('profile.sshInvalid', { detail: invalidKey.detail ?? '' }) : undefined}
        >
          <textarea
            data-testid="ssh-public-key"
            rows={3}
            className={`${inputClass} font-mono`}
            value={publicKey}
            required
            spellCheck={false}
            onChange={(e) => setPublicKey(e.target.value)}
          />
        </Field>
        {add.isError && invalidKey === null && <FormError error={add.error} />}
        <div>
          <button type="submit" data-testid="ssh-add" className={btnPrimary} disabled={add.isPending}>
            {t('profile.addSshKey')}
          </button>
        </div>
      </form>
      {remove.isError && <FormError error={remove.error} />}
      <DataTable
        query={keys}
        rows={keys.data?.items ?? []}
        columns={[
          { id: 'name', header: t('profile.sshKeyName'), cell: (k) => k.name },
          { id: 'type', header: t('profile.sshType'), cell: (k) => k.type, className: 'font-mono text-xs' },
          {
            id: 'fingerprint',
            header: t('profile.fingerprint'),
            cell: (k) => k.fingerprint,
            className: 'break-all font-mono text-xs',
            testId: 'ssh-fingerprint',
          },
          { id: 'created', header: t('common.created'), cell: (k) => formatDateTime(k.createdAt, i18n.language) },
          {
            id: 'lastUsed',
            header: t('profile.lastUsed'),
            cell: (k) => (k.lastUsedAt ? formatDateTime(k.lastUsedAt, i18n.language) : t('profile.never')),
          },
          {
            id: 'delete',
            className: 'text-right',
            cell: (k) => (
              <ConfirmButton testId="ssh-delete" disabled={remove.isPending} onConfirm={() => remove.mutate(k.id)}>
                {t('common.delete')}
              </ConfirmButton>
            ),
          },
        ]}
        rowKey={(k) => k.id}
        rowProps={() => ({ 'data-testid': 'ssh-row' })}
        empty={{ title: t('profile.noSshKeys') }}
        errorTitle={t('profile.sshLoadError')}
        variant="plain"
      />
    </Section>
  );
}

export function ProfilePage() {
  const { t } = useTranslation();
  const me = useQuery(myProfileQuery());
  const { hash } = useLocation();
  // Coming from a link to a section (e.g. /profile#ssh-keys): show it.
  useEffect(() => {
    if (hash.length > 1) document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView?.({ block: 'start' });
  }, [hash]);
  return (
    <div className="flex max-w-5xl flex-col gap-6">
      <PageHeader title={t('profile.title')} subtitle={t('profile.subtitle')} />
      {me.isPending ? (
        <LoadingState />
      ) : me.isError ? (
        <ErrorState title={t('profile.loadError')} error={me.error} onRetry={() => void me.refetch()} />
      ) : (
        <Section title={t('profile.details')}>
          <ProfileForm key={me.data.id} me={me.data} />
        </Section>
      )}
      <Section title={t('profile.password')}>
        <PasswordForm />
      </Section>
      <ClientSection />
      <TokensSection />
      <SshKeysSection />
      <CredentialsSection />
    </div>
  );
}
