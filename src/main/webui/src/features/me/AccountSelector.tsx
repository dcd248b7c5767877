import { useTranslation } from 'react-i18next';
import { useMyProfile } from './queries';
import { useCurrentAccount } from './useCurrentAccount';

/** Header <select> of the user's accounts; switching it changes the X-Crater-Account of every call. */
export function AccountSelector() {
  const { t } = useTranslation();
  const me = useMyProfile();
  const { account, select } = useCurrentAccount();
  if (!me.data) return null;
  const accounts = me.data.accounts;
  const label = (a: (typeof accounts)[number]) => (a.kind === 'personal' ? t('header.personalAccount', { name: a.name }) : a.name);
  const current = accounts.find((a) => a.slug === account);
  return (
    <label className="inline-flex min-w-0 items-center gap-2 text-sm text-slate-600">
      <span className="hidden lg:inline">{t('header.account')}</span>
      <select
        data-testid="account-selector"
        aria-label={t('header.account')}
        value={account ?? ''}
        onChange={(e) => select(e.target.value)}
        title={current ? label(current) : (account ?? undefined)}
        className="w-56 min-w-0 max-w-[40vw] truncate rounded-md border border-slate-300 bg-white py-1 pl-2 pr-8 text-sm text-slate-700"
      >
        {account !== null && !accounts.some((a) => a.slug === account) && <option value={account}>{account}</option>}
        {accounts.map((a) => (
          <option key={a.slug} value={a.slug}>
            {label(a)}
          </option>
        ))}
      </select>
    </label>
  );
}
