import { useState, type FormEvent } from 'react';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { createAccount } from '../../api/accounts';
import { fieldError } from '../../api/errors';
import type { AccountSummary } from '../../api/types';
import { PageHeader } from '../../app/PageHeader';
import { Dialog } from '../../components/common/Dialog';
import { Field, FormError, LoadMore } from '../../components/common/Form';
import { DataTable, type Column } from '../../components/common/DataTable';
import { SearchForm } from '../../components/common/SearchForm';
import { btnPrimary, btnSecondary, inputClass } from '../../components/common/ui';
import { formatDateTime, isPast } from '../../lib/time';
import { userListQuery } from '../admin/queries';
import { useCurrentUser } from '../auth/session';
import { meKeys } from '../me/queries';
import { checkCreateAccount, slugFromName, type CreateAccountValues } from './createAccountForm';
import { accountKeys, accountListQuery } from './queries';

function CreateAccountDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<CreateAccountValues>({ name: '', slug: '', expires: '', admin: '' });
  // The slug follows the name until it is edited by hand.
  const [slugEdited, setSlugEdited] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<keyof CreateAccountValues, string>>>({});
  const users = useInfiniteQuery(userListQuery(''));
  const usernames = (users.data?.pages ?? []).flatMap((p) => p.items.map((u) => u.username));
  const mutation = useMutation({
    mutationFn: createAccount,
    onSuccess: (account) => {
      void queryClient.invalidateQueries({ queryKey: accountKeys.all });
      void queryClient.invalidateQueries({ queryKey: meKeys.profile() });
      onClose();
      void navigate(`/accounts/${encodeURIComponent(account.slug)}`);
    },
  });
  const set = (field: keyof CreateAccountValues, value: string) => {
    setValues((v) => ({
      ...v,
      [field]: value,
      ...(field === 'name' && !slugEdited ? { slug: slugFromName(value) } : {}),
    }));
    if (field === 'slug') setSlugEdited(true);
    // What was said about the old input no longer applies.
    setErrors((e) => ({ ...e, [field]: undefined, ...(field === 'name' && !slugEdited ? { slug: undefined } : {}) }));
    if (mutation.isError) mutation.reset();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const checked = checkCreateAccount(values);
    setErrors(checked.errors);
    if (checked.body) mutation.mutate(checked.body);
  };
  const err = (field: keyof CreateAccountValues, server: string) => {
    const local = errors[field];
    return local ? t(local) : fieldError(mutation.error, server);
  };
  return (
    <Dialog title={t('accounts.create')} onClose={onClose} testId="account-create-dialog">
      <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
        <Field label={t('accounts.name')} error={err('name', 'name')}>
          <input
            data-testid="account-create-name"
            className={inputClass}
            value={values.name}
            onChange={(e) => set('name', e.target.value)}
          />
        </Field>
        <Field label={t('accounts.slug')} hint={t('accounts.slugHint')} error={err('slug', 'slug')}>
          <input
            data-testid="account-create-slug"
            className={inputClass}
            value={values.slug}
            onChange={(e) => set('slug', e.target.value)}
          />
        </Field>
        <Field label={t('accountsAdmin.firstAdmin')} hint={t('accountsAdmin.firstAdminHint')} error={err('admin', 'admin')}>
          <input
            data-testid="account-create-admin"
            list="account-create-admin-options"
            className={inputClass}
            value={values.admin}
            onChange={(e) => set('admin', e.target.value)}
          />
          <datalist id="account-create-admin-options">
            {usernames.map((u) => (
              <option key={u} value={u} />
            ))}
          </datalist>
        </Field>
        <Field label={t('accounts.expiresAt')} hint={t('accounts.noExpiry')} error={err('expires', 'expiresAt')}>
          <input
            type="date"
            data-testid="account-create-expires"
            className={inputClass}
            value={values.expires}
            onChange={(e) => set('expires', e.target.value)}
          />
        </Field>
        {mutation.isError && <FormError error={mutation.error} shownFields={(f) => ['slug', 'name', 'admin', 'expiresAt'].includes(f)} />}
        <div className="flex justify-end gap-2">
          <button type="button" className={btnSecondary} onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" data-testid="account-create-submit" className={btnPrimary} disabled={mutation.isPending}>
            {t('common.create')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

export function AccountsPage() {
  const { t, i18n } = useTranslation();
  const user = useCurrentUser();
  const [q, setQ] = useState('');
  const [creating, setCreating] = useState(false);
  const query = useInfiniteQuery(accountListQuery(q));
  const items = query.data?.pages.flatMap((p) => p.items) ?? [];
  const columns: Column<AccountSummary>[] = [
    {
      id: 'name',
      header: t('accounts.name'),
      cell: (a) => (
        <>
          <Link to={`/accounts/${encodeURIComponent(a.slug)}`} className="font-medium text-indigo-700 hover:underline">
            {a.name}
          </Link>
          {a.archivedAt !== null && (
            <span data-testid="account-archived-tag" className="ml-2 rounded bg-slate-200 px-1.5 py-0.5 text-xs text-slate-600">
              {t('accountsAdmin.archived')}
            </span>
          )}
        </>
      ),
    },
    { id: 'slug', header: t('accounts.slug'), cell: (a) => a.slug, className: 'font-mono' },
    { id: 'kind', header: t('accounts.kind'), cell: (a) => t(`accounts.kinds.${a.kind}`) },
    { id: 'gid', header: t('accounts.gid'), cell: (a) => a.gid, className: 'tabular-nums' },
    { id: 'members', header: t('accounts.members'), cell: (a) => a.members, className: 'tabular-nums' },
    {
      id: 'expires',
      header: t('accounts.expiresAt'),
      cell: (a) =>
        a.expiresAt === null ? (
          t('accounts.never')
        ) : (
          <span className={isPast(a.expiresAt) ? 'text-rose-700' : undefined}>{formatDateTime(a.expiresAt, i18n.language)}</span>
        ),
    },
  ];

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <PageHeader title={t('accounts.title')} subtitle={t('accounts.subtitle')} />
        {user.role === 'admin' && (
          <button type="button" data-testid="account-create-open" className={btnPrimary} onClick={() => setCreating(true)}>
            {t('accounts.create')}
          </button>
        )}
      </div>
      <SearchForm testId="account-search" placeholder={t('accounts.searchPlaceholder')} onSearch={setQ} />
      <DataTable
        query={query}
        rows={items}
        columns={columns}
        rowKey={(a) => a.slug}
        rowProps={(a) => ({ 'data-testid': 'account-row', 'data-slug': a.slug, className: 'hover:bg-slate-50' })}
        empty={{ title: q ? t('accounts.noMatch', { q }) : t('accounts.empty') }}
        errorTitle={t('accounts.loadError')}
        testId="account-table"
        footer={<LoadMore hasMore={query.hasNextPage} loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()} />}
      />
      {creating && <CreateAccountDialog onClose={() => setCreating(false)} />}
    </div>
  );
}
