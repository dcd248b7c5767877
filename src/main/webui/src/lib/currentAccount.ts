/**
 * The account (slug) the user currently acts in. Remembered per user in localStorage
 * (`crater.account:<username>`), so each person comes back to the account they used last, also after signing
 * out and in again, and a second person on the same browser does not inherit it. The API client sends it with
 * every request, and components subscribe to changes.
 */

export const ACCOUNT_STORAGE_PREFIX = 'crater.account:';

type Listener = () => void;
const listeners = new Set<Listener>();
/** Whose choice is read and written; null before sign-in and after sign-out. */
let owner: string | null = null;
/** Fallback when storage is unavailable (private mode): the choice lasts for this page only. */
let memoryValue: string | null = null;

function storageKey(): string | null {
  return owner === null ? null : ACCOUNT_STORAGE_PREFIX + owner;
}

function read(): string | null {
  const key = storageKey();
  if (key === null) return memoryValue;
  try {
    const v = window.localStorage.getItem(key);
    return v === null || v === '' ? memoryValue : v;
  } catch {
    return memoryValue;
  }
}

export function getCurrentAccount(): string | null {
  return read();
}

function notifyIfChanged(before: string | null): void {
  if (before !== read()) for (const l of listeners) l();
}

/**
 * Whose account choice applies: the signed-in user's username, or null at sign-out (the choice stays stored
 * for their next sign-in).
 */
export function setAccountOwner(username: string | null): void {
  if (username === owner) return;
  const before = read();
  owner = username;
  memoryValue = null;
  notifyIfChanged(before);
}

/** Stores the slug for the current owner (null clears it) and notifies subscribers when it changed. */
export function setCurrentAccount(slug: string | null): void {
  const before = read();
  memoryValue = slug;
  const key = storageKey();
  if (key !== null) {
    try {
      if (slug === null) window.localStorage.removeItem(key);
      else window.localStorage.setItem(key, slug);
    } catch {
      // keep the in-memory value
    }
  }
  notifyIfChanged(before);
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
