import { useEffect, useRef } from 'react';
import { useCurrentAccount } from '../me/useCurrentAccount';

/**
 * Runs a check again when the current account changes (the old result described another account); a check that
 * was not made stays absent.
 */
export function useRecheckOnAccountChange<T>(mutation: {
  variables: T | undefined;
  data: unknown;
  error: unknown;
  mutate: (variables: T) => void;
}): void {
  const { account } = useCurrentAccount();
  const last = useRef(account);
  const latest = useRef(mutation);
  // Kept current after each render (not during it), before the effect below reads it.
  useEffect(() => {
    latest.current = mutation;
  });
  useEffect(() => {
    if (last.current === account) return;
    last.current = account;
    const m = latest.current;
    if (m.variables !== undefined && (m.data !== undefined || m.error !== null)) m.mutate(m.variables);
  }, [account]);
}
