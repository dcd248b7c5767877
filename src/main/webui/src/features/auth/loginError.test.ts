import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors';
import i18n from '../../i18n';
import { loginErrorMessage } from './loginError';

const t = i18n.getFixedT('en');

describe('loginErrorMessage', () => {
  it('explains wrong credentials', () => {
    const err = new ApiError({ status: 401, code: 'InvalidCredentials', title: 'Unauthorized' });
    expect(loginErrorMessage(err, t)).toBe('Wrong username or password.');
  });
  it('includes the retry seconds when throttled', () => {
    const err = new ApiError({ status: 429, code: 'TooManyAttempts', title: 'Too many', retryAfterSeconds: 37 });
    expect(loginErrorMessage(err, t)).toBe('Too many sign-in attempts. Try again in 37 seconds.');
    expect(loginErrorMessage(err, t, 1)).toBe('Too many sign-in attempts. Try again in 1 second.');
  });
  it('reports network failures', () => {
    expect(loginErrorMessage(ApiError.network(new TypeError('x')), t)).toBe(
      'Cannot reach the server. Check your connection and try again.',
    );
  });
  it('shows the problem detail otherwise', () => {
    const err = new ApiError({ status: 500, code: 'ServerError', title: 'Internal', detail: 'Database down' });
    expect(loginErrorMessage(err, t)).toBe('Sign-in failed: Database down');
  });
  it('is translated to Chinese', () => {
    const zh = i18n.getFixedT('zh-CN');
    const err = new ApiError({ status: 429, code: 'TooManyAttempts', title: 'Too many', retryAfterSeconds: 5 });
    expect(loginErrorMessage(err, zh)).toBe('登录尝试次数过多，请在 5 秒后重试。');
  });
});
