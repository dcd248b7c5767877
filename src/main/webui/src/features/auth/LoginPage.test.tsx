import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { LoginPage } from './LoginPage';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const urlOf = (u: string | URL | Request) => (u instanceof Request ? u.url : String(u));

const noProviders = () =>
  Promise.resolve(new Response(JSON.stringify({ items: [] }), { status: 200, headers: { 'Content-Type': 'application/json' } }));

/** The server refuses every sign-in: too many attempts, retry after `seconds`; it has no sign-in providers. */
function throttle(seconds: number) {
  const fetch = vi.fn((url: string | URL | Request) =>
    urlOf(url).includes('/auth/oidc/providers')
      ? noProviders()
      : Promise.resolve(
          new Response(JSON.stringify({ title: 'Too Many Requests', status: 429, code: 'TooManyAttempts', detail: 'slow down' }), {
            status: 429,
            headers: { 'Content-Type': 'application/problem+json', 'Retry-After': String(seconds) },
          }),
        ),
  );
  const logins = () => fetch.mock.calls.filter(([url]) => urlOf(url).includes('/auth/login')).length;
  vi.stubGlobal('fetch', fetch);
  return Object.assign(fetch, { logins });
}

function page(entry: string) {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={[entry]}>
        <LoginPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

async function signInAs(username: string, password: string) {
  fireEvent.change(screen.getByTestId('login-username'), { target: { value: username } });
  fireEvent.change(screen.getByTestId('login-password'), { target: { value: password } });
  await act(async () => {
    fireEvent.click(screen.getByTestId('login-submit'));
    await vi.advanceTimersByTimeAsync(0);
  });
}

describe('LoginPage', () => {
  it('counts the wait of a throttled sign-in down once per second, then says to try later', async () => {
    vi.useFakeTimers();
    const fetch = throttle(3);
    page('/login');
    await signInAs('ann', 'wrong-password');
    expect(fetch.logins()).toBe(1);
    expect(screen.getByTestId('login-error').textContent).toContain('Try again in 3 seconds.');
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.getByTestId('login-error').textContent).toContain('Try again in 2 seconds.');
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.getByTestId('login-error').textContent).toContain('Try again in 1 second.');
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.getByTestId('login-error').textContent).toContain('Too many sign-in attempts. Try again later.');

    // A new refusal starts a new countdown.
    await signInAs('ann', 'wrong-password');
    expect(screen.getByTestId('login-error').textContent).toContain('Try again in 3 seconds.');
  });

  it('shows a button per sign-in provider, leading to its start with the page to come back to', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() =>
        Promise.resolve(
          new Response(
            JSON.stringify({
              items: [
                { name: 'corp-sso', displayName: 'Corp SSO' },
                { name: 'uni', displayName: 'University' },
              ],
            }),
            {
              status: 200,
              headers: { 'Content-Type': 'application/json' },
            },
          ),
        ),
      ),
    );
    page('/login');
    const corp = await screen.findByTestId('login-provider-corp-sso');
    expect(corp.textContent).toBe('Sign in with Corp SSO');
    expect(corp.getAttribute('href')).toBe('/api/v1/auth/oidc/corp-sso/start?returnTo=%2F');
    expect(screen.getByTestId('login-provider-uni').textContent).toBe('Sign in with University');
  });

  it('says why a sign-in at a provider came back refused, and shows no buttons when none is configured', async () => {
    vi.stubGlobal('fetch', vi.fn(noProviders));
    page('/login?signInError=UsernameTaken');
    const error = screen.getByTestId('login-error');
    expect(error.textContent).toBe('A user with this name exists already and is not linked to this provider. Ask an administrator.');
    expect(error.getAttribute('data-code')).toBe('UsernameTaken');
    await act(async () => {});
    expect(screen.queryByTestId('login-providers')).toBeNull();
  });

  it('says the password still works when the providers cannot be listed', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    page('/login?signInError=SomethingNew');
    expect(screen.getByTestId('login-error').textContent).toBe('Signing in at the provider failed (SomethingNew).');
    expect((await screen.findByTestId('login-providers-error')).textContent).toContain('signing in with a password still works');
  });
});
