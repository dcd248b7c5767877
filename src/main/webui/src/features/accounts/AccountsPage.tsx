import { useState, type FormEvent } from 'react';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { createAccount } from '../../api/accounts';
import { fieldError } from '../../api/errors';
import { PageHeader } from '../../app/PageHeader';
import { Dialog } from '../../components/common/Dialog';
import { Field, FormError, LoadMore } from '../../components/common/Form';
import { EmptyState, ErrorState, LoadingState } from '../../components/common/States';
import { btnPrimary, btnSecondary, inputClass, tableWrap, td, th } from '../../components/common/ui';
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
  const [search, setSearch] = useState('');
  const [q, setQ] = useState('');
  const [creating, setCreating] = useState(false);
  const query = useInfiniteQuery(accountListQuery(q));
  const items = query.data?.pages.flatMap((p) => p.items) ?? [];

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
      <form
        role="search"
        className="flex max-w-md gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          setQ(search.trim());
        }}
      >
        <input
          data-testid="account-search"
          type="search"
          aria-label={t('common.search')}
          placeholder={t('accounts.searchPlaceholder')}
          className={inputClass}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        <button type="submit" className={btnSecondary}>
          {t('common.search')}
        </button>
      </form>
      {query.isPending ? (
        <LoadingState />
      ) : query.isError ? (
        <ErrorState title={t('accounts.loadError')} error={query.error} onRetry={() => void query.refetch()} />
      ) : items.length === 0 ? (
        <EmptyState title={q ? t('accounts.noMatch', { q }) : t('accounts.empty')} />
      ) : (
        <>
          <div className={tableWrap}>
            <table className="min-w-full" data-testid="account-table">
              <thead className="bg-slate-50">
                <tr>
                  <th className={th}>{t('accounts.name')}</th>
                  <th className={th}>{t('accounts.slug')}</th>
                  <th className={th}>{t('accounts.kind')}</th>
                  <th className={th}>{t('accounts.gid')}</th>
                  <th className={th}>{t('accounts.members')}</th>
                  <th className={th}>{t('accounts.expiresAt')}</th>
                </tr>
              </thead>
              <tbody>
                {items.map((a) => (
                  <tr key={a.slug} data-testid="account-row" data-slug={a.slug} className="border-t border-slate-100 hover:bg-slate-50">
                    <td className={td}>
                      <Link to={`/accounts/${encodeURIComponent(a.slug)}`} className="font-medium text-indigo-700 hover:underline">
                        {a.name}
                      </Link>
                      {a.archivedAt !== null && (
                        <span data-testid="account-archived-tag" className="ml-2 rounded bg-slate-200 px-1.5 py-0.5 text-xs text-slate-600">
                          {t('accountsAdmin.archived')}
                        </span>
                      )}
                    </td>
                    <td className={`${td} font-mono`}>{a.slug}</td>
                    <td className={td}>{t(`accounts.kinds.${a.kind}`)}</td>
                    <td className={`${td} tabular-nums`}>{a.gid}</td>
                    <td className={`${td} tabular-nums`}>{a.members}</td>
                    <td className={td}>
                      {a.expiresAt === null ? (
                        t('accounts.never')
                      ) : (
                        <span className={isPast(a.expiresAt) ? 'text-rose-700' : undefined}>
                          {formatDateTime(a.expiresAt, i18n.language)}
                        </span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <LoadMore hasMore={query.hasNextPage} loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()} />
        </>
      )}
      {creating && <CreateAccountDialog onClose={() => setCreating(false)} />}
    </div>
  );
}
