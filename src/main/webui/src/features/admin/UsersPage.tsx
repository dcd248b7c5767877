import { useState, type FormEvent } from 'react';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { fieldError } from '../../api/errors';
import type { ManagedUser, Role, UserCreate } from '../../api/types';
import { createUser, resetUserPassword, updateUser } from '../../api/users';
import { AccountRolesField, type AccountRoleRow } from './AccountRolesField';
import { PageHeader } from '../../app/PageHeader';
import { ConfirmButton } from '../../components/common/ConfirmButton';
import { SecretBox } from '../../components/common/CopyButton';
import { Dialog } from '../../components/common/Dialog';
import { Field, FormError, LoadMore, SuccessNote } from '../../components/common/Form';
import { DataTable, type Column } from '../../components/common/DataTable';
import { SearchForm } from '../../components/common/SearchForm';
import { StatusBadge } from '../../components/common/StatusBadge';
import { btnPrimary, btnSecondary, btnSmall, inputClass, inputInvalid, td } from '../../components/common/ui';
import { formatDateTime } from '../../lib/time';
import { normalizeUsername, usernameProblem } from '../../lib/usernames';
import { useCurrentUser } from '../auth/session';
import { accountKeys } from '../accounts/queries';
import { DirectoryPanel } from './DirectoryPanel';
import { ImportUsersDialog } from './ImportUsersDialog';
import { userKeys, userListQuery } from './queries';

const ROLES: Role[] = ['user', 'admin'];

/** A one-time secret to show on the page: whose it is and why. */
interface Shown {
  username: string;
  password: string;
  reason: 'created' | 'reset';
}

/**
 * The username input with the server's rules under it from the start; once something is typed, what is wrong
 * with it (before sending) or the lower-case form it will be stored as. A server error wins.
 */
export function UsernameField({
  value,
  onChange,
  serverError,
}: {
  value: string;
  onChange: (v: string) => void;
  serverError?: string | undefined;
}) {
  const { t } = useTranslation();
  const problem = value === '' ? null : usernameProblem(value);
  const stored = normalizeUsername(value);
  const local = problem ? t(`users.usernameProblem.${problem}`, { count: stored.length }) : undefined;
  const error = serverError ?? local;
  return (
    <Field label={t('users.username')} error={error}>
      <input
        data-testid="user-create-username"
        className={`${inputClass} ${error ? inputInvalid : ''}`}
        aria-invalid={error !== undefined}
        aria-describedby="user-create-username-rule"
        required
        autoComplete="off"
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      <span id="user-create-username-rule" data-testid="user-create-username-rule" className="mt-1 block text-xs text-slate-500">
        {t('users.usernameRule')}
        {!problem && value !== '' && stored !== value ? ` ${t('users.usernameSavedAs', { name: stored })}` : ''}
      </span>
    </Field>
  );
}

function CreateUserDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (u: ManagedUser, password?: string) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [form, setForm] = useState({ username: '', displayName: '', email: '', password: '', role: 'user' as Role });
  const [joins, setJoins] = useState<AccountRoleRow[]>([]);
  const mutation = useMutation({
    mutationFn: createUser,
    onSuccess: (res) => {
      void queryClient.invalidateQueries({ queryKey: userKeys.all });
      void queryClient.invalidateQueries({ queryKey: accountKeys.all });
      onCreated(res.user, res.password);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    // The rules are shown under the field; a name the server would refuse is not sent.
    if (usernameProblem(form.username) !== null) return;
    const body: UserCreate = { username: form.username.trim(), displayName: form.displayName.trim(), role: form.role };
    if (form.email.trim()) body.email = form.email.trim();
    if (form.password) body.password = form.password;
    const chosen = joins.filter((j) => j.account !== '');
    if (chosen.length > 0) body.accounts = chosen;
    mutation.mutate(body);
  };
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));
  return (
    <Dialog title={t('users.create')} onClose={onClose} testId="user-create-dialog">
      <form onSubmit={submit} className="flex flex-col gap-4">
        <UsernameField
          value={form.username}
          onChange={(username) => setForm((f) => ({ ...f, username }))}
          serverError={fieldError(mutation.error, 'username')}
        />
        <Field label={t('users.displayName')} error={fieldError(mutation.error, 'displayName')}>
          <input
            data-testid="user-create-displayname"
            className={inputClass}
            required
            value={form.displayName}
            onChange={set('displayName')}
          />
        </Field>
        <Field label={t('users.email')} error={fieldError(mutation.error, 'email')}>
          <input data-testid="user-create-email" type="email" className={inputClass} value={form.email} onChange={set('email')} />
        </Field>
        <Field label={t('users.password')} hint={t('users.passwordHint')} error={fieldError(mutation.error, 'password')}>
          <input
            data-testid="user-create-password"
            type="password"
            autoComplete="new-password"
            className={inputClass}
            value={form.password}
            onChange={set('password')}
          />
        </Field>
        <Field label={t('users.role')}>
          <select data-testid="user-create-role" className={inputClass} value={form.role} onChange={set('role')}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {t(`header.role.${r}`)}
              </option>
            ))}
          </select>
        </Field>
        <AccountRolesField value={joins} onChange={setJoins} errorOf={(field) => fieldError(mutation.error, field)} />
        {mutation.isError && <FormError error={mutation.error} />}
        <div className="flex justify-end gap-2">
          <button type="button" className={btnSecondary} onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" data-testid="user-create-submit" className={btnPrimary} disabled={mutation.isPending}>
            {t('common.create')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function UserRow({ u, self, onReset }: { u: ManagedUser; self: boolean; onReset: (username: string, password: string) => void }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const update = useMutation({
    mutationFn: (patch: { role?: Role; disabled?: boolean }) => updateUser(u.username, patch),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
  const reset = useMutation({
    mutationFn: () => resetUserPassword(u.username),
    onSuccess: (res) => onReset(u.username, res.password),
  });
  const error = update.error ?? reset.error;
  return (
    <tr data-testid="user-row" data-username={u.username} data-disabled={u.disabled} className="border-t border-slate-100 align-top">
      <td className={td}>
        <span className="block font-medium text-slate-800">{u.displayName || u.username}</span>
        <span className="block font-mono text-xs text-slate-500">{u.username}</span>
        {error && (
          <div className="mt-1">
            <FormError error={error} />
          </div>
        )}
      </td>
      <td className={td}>{u.email ?? '—'}</td>
      <td className={`${td} tabular-nums`}>{u.uid}</td>
      <td className={td}>
        <select
          data-testid="user-role"
          aria-label={t('users.roleOf', { username: u.username })}
          className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm"
          value={u.role}
          disabled={self || update.isPending}
          onChange={(e) => update.mutate({ role: e.target.value as Role })}
        >
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {t(`header.role.${r}`)}
            </option>
          ))}
        </select>
      </td>
      <td className={td}>
        <StatusBadge
          tone={u.disabled ? 'danger' : 'success'}
          label={u.disabled ? t('users.disabled') : t('users.enabled')}
          value={u.disabled ? 'disabled' : 'enabled'}
        />
      </td>
      <td className={td}>{formatDateTime(u.createdAt, i18n.language)}</td>
      <td className={`${td} whitespace-nowrap text-right`}>
        <span className="inline-flex gap-1">
          {u.disabled ? (
            <button
              type="button"
              data-testid="user-enable"
              className={btnSmall}
              disabled={update.isPending}
              onClick={() => update.mutate({ disabled: false })}
            >
              {t('users.enable')}
            </button>
          ) : (
            !self && (
              <ConfirmButton testId="user-disable" disabled={update.isPending} onConfirm={() => update.mutate({ disabled: true })}>
                {t('users.disable')}
              </ConfirmButton>
            )
          )}
          <ConfirmButton testId="user-reset-password" disabled={reset.isPending} onConfirm={() => reset.mutate()}>
            {t('users.resetPassword')}
          </ConfirmButton>
        </span>
      </td>
    </tr>
  );
}

export function UsersPage() {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const [q, setQ] = useState('');
  const [creating, setCreating] = useState(false);
  const [importing, setImporting] = useState(false);
  const [shown, setShown] = useState<Shown | null>(null);
  const [created, setCreated] = useState<string | null>(null);
  const query = useInfiniteQuery(userListQuery(q));
  const items = query.data?.pages.flatMap((p) => p.items) ?? [];
  // Headers only: each row renders its cells itself (UserRow: actions with their own state).
  const columns: Column<ManagedUser>[] = [
    { id: 'user', header: t('users.user') },
    { id: 'email', header: t('users.email') },
    { id: 'uid', header: t('users.uid') },
    { id: 'role', header: t('users.role') },
    { id: 'status', header: t('users.status') },
    { id: 'created', header: t('common.created') },
    { id: 'actions' },
  ];

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <PageHeader title={t('users.title')} subtitle={t('users.subtitle')} />
        <div className="flex gap-2">
          <button type="button" data-testid="user-import-open" className={btnSecondary} onClick={() => setImporting(true)}>
            {t('users.import')}
          </button>
          <button
            type="button"
            data-testid="user-create-open"
            className={btnPrimary}
            onClick={() => {
              setCreated(null);
              setCreating(true);
            }}
          >
            {t('users.create')}
          </button>
        </div>
      </div>
      <DirectoryPanel />
      {created && !shown && <SuccessNote testId="user-created">{t('users.createdNote', { username: created })}</SuccessNote>}
      {shown && (
        <div className="flex flex-col gap-2" data-testid="user-password-shown">
          <SecretBox
            value={shown.password}
            testId="user-created-password"
            warning={t(shown.reason === 'created' ? 'users.createdPassword' : 'users.resetPasswordShown', {
              username: shown.username,
            })}
          />
          <div>
            <button type="button" className="text-sm text-slate-500 hover:underline" onClick={() => setShown(null)}>
              {t('common.dismiss')}
            </button>
          </div>
        </div>
      )}
      <SearchForm testId="user-search" placeholder={t('users.searchPlaceholder')} onSearch={setQ} />
      <DataTable
        query={query}
        rows={items}
        columns={columns}
        rowKey={(u) => u.username}
        renderRow={(u) => (
          <UserRow
            u={u}
            self={u.username === me.username}
            onReset={(username, password) => setShown({ username, password, reason: 'reset' })}
          />
        )}
        empty={{ title: q ? t('users.noMatch', { q }) : t('users.empty') }}
        errorTitle={t('users.loadError')}
        testId="user-table"
        footer={<LoadMore hasMore={query.hasNextPage} loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()} />}
      />
      {creating && (
        <CreateUserDialog
          onClose={() => setCreating(false)}
          onCreated={(u, password) => {
            setCreating(false);
            setCreated(u.username);
            setShown(password ? { username: u.username, password, reason: 'created' } : null);
          }}
        />
      )}
      {importing && <ImportUsersDialog onClose={() => setImporting(false)} />}
    </div>
  );
}
