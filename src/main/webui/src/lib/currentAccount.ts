/**
 * The account (slug) the user currently acts in. Kept in localStorage so it survives reloads;
 * the API client sends it with every request, and components subscribe to changes.
 */

export const ACCOUNT_STORAGE_KEY = 'crater.account';

type Listener = () => void;
const listeners = new Set<Listener>();
/** Fallback when storage is unavailable (private mode): the choice lasts for this page only. */
let memoryValue: string | null = null;

export function getCurrentAccount(): string | null {
  try {
    const v = window.localStorage.getItem(ACCOUNT_STORAGE_KEY);
    return v === null || v === '' ? memoryValue : v;
  } catch {
    return memoryValue;
  }
}

/** Stores the slug (null clears it) and notifies subscribers when it changed. */
export function setCurrentAccount(slug: string | null): void {
  const before = getCurrentAccount();
  memoryValue = slug;
  try {
    if (slug === null) window.localStorage.removeItem(ACCOUNT_STORAGE_KEY);
    else window.localStorage.setItem(ACCOUNT_STORAGE_KEY, slug);
  } catch {
    // keep the in-memory value
  }
  if (before !== slug) for (const l of listeners) l();
}

export function subscribeCurrentAccount(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * The account to act in: the stored one when the user still belongs to it, else the user's default,
 * else the first account, else null.
 */
export function resolveAccount(
  stored: string | null,
  accounts: readonly { slug: string }[],
  defaultAccount: string | null | undefined,
): string | null {
  if (stored !== null && accounts.some((a) => a.slug === stored)) return stored;
  if (defaultAccount && accounts.some((a) => a.slug === defaultAccount)) return defaultAccount;
  if (defaultAccount) return defaultAccount;
  return accounts[0]?.slug ?? null;
}
