import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { getCurrentAccount, resolveAccount, setCurrentAccount, subscribeCurrentAccount } from '../../lib/currentAccount';
import { useMyProfile } from './queries';

/**
 * The account the user acts in (sent as X-Crater-Account) and a setter that switches it and reloads
 * every query, since most answers depend on the account.
 */
export function useCurrentAccount(): { account: string | null; select: (slug: string) => void } {
  const queryClient = useQueryClient();
  const me = useMyProfile();
  const stored = useSyncExternalStore(subscribeCurrentAccount, getCurrentAccount, () => null);
  const account = me.data ? resolveAccount(stored, me.data.accounts, me.data.defaultAccount) : stored;

  // Remember the resolved default so that requests carry it from now on.
  useEffect(() => {
    if (me.data && account !== stored) setCurrentAccount(account);
  }, [me.data, account, stored]);

  const select = useCallback(
    (slug: string) => {
      if (slug === getCurrentAccount()) return;
      setCurrentAccount(slug);
      void queryClient.invalidateQueries();
    },
    [queryClient],
  );

  return { account, select };
}
