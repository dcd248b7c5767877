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
import { formatDateTime, isPast, localInputToIso } from '../../lib/time';
import { useCurrentUser } from '../auth/session';
import { meKeys } from '../me/queries';
import { accountKeys, accountListQuery } from './queries';

const SLUG_PATTERN = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

function CreateAccountDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [slug, setSlug] = useState('');
  const [name, setName] = useState('');
  const [expires, setExpires] = useState('');
  const [badSlug, setBadSlug] = useState(false);
  const mutation = useMutation({
    mutationFn: createAccount,
    onSuccess: (account) => {
      void queryClient.invalidateQueries({ queryKey: accountKeys.all });
      void queryClient.invalidateQueries({ queryKey: meKeys.profile() });
      onClose();
      void navigate(`/accounts/${encodeURIComponent(account.slug)}`);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const s = slug.trim();
    if (!SLUG_PATTERN.test(s)) {
      setBadSlug(true);
      return;
    }
    setBadSlug(false);
    const expiresAt = localInputToIso(expires);
    mutation.mutate(expiresAt ? { slug: s, name: name.trim(), expiresAt } : { slug: s, name: name.trim() });
  };
  return (
    <Dialog title={t('accounts.create')} onClose={onClose} testId="account-create-dialog">
      <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
        <Field
          label={t('accounts.slug')}
          hint={t('accounts.slugHint')}
          error={badSlug ? t('accounts.slugInvalid') : fieldError(mutation.error, 'slug')}
        >
          <input
            data-testid="account-create-slug"
            className={inputClass}
            value={slug}
            onChange={(e) => setSlug(e.target.value)}
          />
        </Field>
        <Field label={t('accounts.name')} error={fieldError(mutation.error, 'name')}>
          <input
            data-testid="account-create-name"
            className={inputClass}
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        </Field>
        <Field label={t('accounts.expiresAt')} hint={t('accounts.noExpiry')}>
          <input type="date" className={inputClass} value={expires} onChange={(e) => setExpires(e.target.value)} />
        </Field>
        {mutation.isError && <FormError error={mutation.error} />}
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
          <LoadMore
            hasMore={query.hasNextPage}
            loading={query.isFetchingNextPage}
            onClick={() => void query.fetchNextPage()}
          />
        </>
      )}
      {creating && <CreateAccountDialog onClose={() => setCreating(false)} />}
    </div>
  );
}
