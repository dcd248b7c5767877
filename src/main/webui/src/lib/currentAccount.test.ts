import { afterEach, describe, expect, it, vi } from 'vitest';
import { getCurrentAccount, resolveAccount, setCurrentAccount, subscribeCurrentAccount } from './currentAccount';

afterEach(() => setCurrentAccount(null));

describe('current account', () => {
  it('is stored in localStorage and announced to subscribers', () => {
    const listener = vi.fn();
    const unsubscribe = subscribeCurrentAccount(listener);
    setCurrentAccount('vision-lab');
    expect(getCurrentAccount()).toBe('vision-lab');
    expect(window.localStorage.getItem('crater.account')).toBe('vision-lab');
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
