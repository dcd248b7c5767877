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
  return (
    <label className="inline-flex items-center gap-2 text-sm text-slate-600">
      <span className="hidden lg:inline">{t('header.account')}</span>
      <select
        data-testid="account-selector"
        aria-label={t('header.account')}
        value={account ?? ''}
        onChange={(e) => select(e.target.value)}
        className="max-w-48 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm text-slate-700"
      >
        {account !== null && !accounts.some((a) => a.slug === account) && <option value={account}>{account}</option>}
        {accounts.map((a) => (
          <option key={a.slug} value={a.slug}>
            {a.kind === 'personal' ? t('header.personalAccount', { name: a.name }) : a.name}
          </option>
        ))}
      </select>
    </label>
  );
}
