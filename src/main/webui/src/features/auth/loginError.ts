import type { TFunction } from 'i18next';
import { isApiError } from '../../api/errors';

/** Message for a failed sign-in: wrong credentials, throttling (with the wait), network, or the problem text. */
export function loginErrorMessage(error: unknown, t: TFunction, retrySeconds?: number): string {
  if (!isApiError(error)) return t('login.failed', { message: error instanceof Error ? error.message : String(error) });
  if (error.isNetworkError) return t('login.network');
  if (error.status === 429 || error.code === 'TooManyAttempts') {
    const seconds = retrySeconds ?? error.retryAfterSeconds;
    return seconds !== undefined && seconds > 0 ? t('login.throttled', { count: seconds }) : t('login.throttledNoDelay');
  }
  if (error.status === 401 || error.code === 'InvalidCredentials') return t('login.invalidCredentials');
  return t('login.failed', { message: error.detail ?? error.title });
}

/** The codes a failed sign-in at a provider comes back with (`/login?signInError=<code>`), each with its own text. */
const PROVIDER_ERRORS = [
  'InvalidSignInState',
  'ProviderRefused',
  'InvalidIdToken',
  'AccountDisabled',
  'NotFound',
  'UsernameTaken',
  'ProviderClaimsUnusable',
  'ProviderUnavailable',
] as const;

/** Message for the code a provider's sign-in came back with; null when there is none. */
export function providerErrorMessage(code: string | null, t: TFunction): string | null {
  if (code === null || code === '') return null;
  const known = (PROVIDER_ERRORS as readonly string[]).includes(code);
  return known ? t(`login.provider.errors.${code}`) : t('login.provider.errors.other', { code });
}
