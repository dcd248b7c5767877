import { afterEach, describe, expect, it, vi } from 'vitest';
import { getCurrentAccount, resolveAccount, setAccountOwner, setCurrentAccount, subscribeCurrentAccount } from './currentAccount';

afterEach(() => {
  setCurrentAccount(null);
  setAccountOwner(null);
  window.localStorage.clear();
});

describe('current account', () => {
  it('is remembered per user across sign-out and sign-in, never handed to the next user', () => {
    setAccountOwner('alice');
    setCurrentAccount('vision-lab');
    expect(window.localStorage.getItem('crater.account:alice')).toBe('vision-lab');
    setAccountOwner(null);
    expect(getCurrentAccount()).toBeNull();
    setAccountOwner('bob');
    expect(getCurrentAccount()).toBeNull();
    setCurrentAccount('nlp-lab');
    setAccountOwner('alice');
    expect(getCurrentAccount()).toBe('vision-lab');
    setAccountOwner('bob');
    expect(getCurrentAccount()).toBe('nlp-lab');
  });

  it('is stored in localStorage and announced to subscribers', () => {
    setAccountOwner('alice');
    const listener = vi.fn();
    const unsubscribe = subscribeCurrentAccount(listener);
    setCurrentAccount('vision-lab');
    expect(getCurrentAccount()).toBe('vision-lab');
    expect(window.localStorage.getItem('crater.account:alice')).toBe('vision-lab');
    setCurrentAccount('vision-lab');
    expect(listener).toHaveBeenCalledTimes(1);
    unsubscribe();
    setCurrentAccount(null);
    expect(getCurrentAccount()).toBeNull();
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('falls back to the default account when the stored one is not the user’s', () => {
    const accounts = [{ slug: 'u-alice' }, { slug: 'vision-lab' }];
    expect(resolveAccount('vision-lab', accounts, 'u-alice')).toBe('vision-lab');
    expect(resolveAccount('other-lab', accounts, 'u-alice')).toBe('u-alice');
    expect(resolveAccount(null, accounts, 'u-alice')).toBe('u-alice');
    expect(resolveAccount(null, accounts, null)).toBe('u-alice');
    expect(resolveAccount(null, [], null)).toBeNull();
  });
});
