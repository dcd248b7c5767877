import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AccountRole } from '../../api/types';
import { btnSecondary, btnSmall, inputClass } from '../../components/common/ui';
import { accountListQuery } from '../accounts/queries';

/** A team account a new user joins, with their role there. */
export interface AccountRoleRow {
  account: string;
  role: AccountRole;
}

const ROLES: AccountRole[] = ['member', 'admin'];

/**
 * The team accounts a user is created into, one row each (account, role); the server adds them in the same
 * transaction as the user and refuses the whole creation over one bad row, naming it (`accounts[i].account`).
 */
export function AccountRolesField({
  value,
  onChange,
  errorOf,
}: {
  value: AccountRoleRow[];
  onChange: (rows: AccountRoleRow[]) => void;
  errorOf: (field: string) => string | undefined;
}) {
  const { t } = useTranslation();
  const accounts = useInfiniteQuery(accountListQuery(''));
  const teams = (accounts.data?.pages ?? []).flatMap((p) => p.items).filter((a) => a.kind !== 'personal' && !a.archivedAt);
  const set = (i: number, patch: Partial<AccountRoleRow>) => onChange(value.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <fieldset className="flex flex-col gap-2" data-testid="user-create-accounts">
      <legend className="mb-1 text-sm font-medium text-slate-700">{t('users.accounts')}</legend>
      <p className="text-xs text-slate-500">{t('users.accountsHint')}</p>
      {accounts.isError && <p className="text-xs text-red-700">{t('users.accountsLoadError')}</p>}
      {value.map((row, i) => {
        const error = errorOf(`accounts[${i}].account`) ?? errorOf(`accounts[${i}].role`);
        return (
          <div key={i} className="flex flex-col gap-1">
            <div className="flex items-center gap-2">
              <select
                data-testid={`user-create-account-${i}`}
                aria-label={t('users.accountOf', { n: i + 1 })}
                className={inputClass}
                value={row.account}
                onChange={(e) => set(i, { account: e.target.value })}
              >
                <option value="">{accounts.isPending ? t('common.loading') : t('users.chooseAccount')}</option>
                {teams.map((a) => (
                  <option key={a.slug} value={a.slug}>
                    {a.name} ({a.slug})
                  </option>
                ))}
              </select>
              <select
                data-testid={`user-create-account-role-${i}`}
                aria-label={t('users.accountRoleOf', { n: i + 1 })}
                className={inputClass}
                value={row.role}
                onChange={(e) => set(i, { role: e.target.value as AccountRole })}
              >
                {ROLES.map((r) => (
                  <option key={r} value={r}>
                    {t(`members.roles.${r}`)}
                  </option>
                ))}
              </select>
              <button
                type="button"
                data-testid={`user-create-account-remove-${i}`}
                className={`${btnSecondary} ${btnSmall}`}
                onClick={() => onChange(value.filter((_, j) => j !== i))}
              >
                {t('users.removeAccount')}
              </button>
            </div>
            {error && (
              <p className="text-xs text-red-700" role="alert">
                {error}
              </p>
            )}
          </div>
        );
      })}
      <button
        type="button"
        data-testid="user-create-account-add"
        className={`${btnSecondary} ${btnSmall} self-start`}
        onClick={() => onChange([...value, { account: '', role: 'member' }])}
      >
        {t('users.addAccount')}
      </button>
    </fieldset>
  );
}
