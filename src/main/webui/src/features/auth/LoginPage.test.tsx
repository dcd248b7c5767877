import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { LoginPage } from './LoginPage';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** The server refuses every sign-in: too many attempts, retry after `seconds`. */
function throttle(seconds: number) {
  const fetch = vi.fn(() =>
    Promise.resolve(
      new Response(JSON.stringify({ title: 'Too Many Requests', status: 429, code: 'TooManyAttempts', detail: 'slow down' }), {
        status: 429,
        headers: { 'Content-Type': 'application/problem+json', 'Retry-After': String(seconds) },
      }),
    ),
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
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
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter initialEntries={['/login']}>
          <LoginPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await signInAs('ann', 'wrong-password');
    expect(fetch).toHaveBeenCalledTimes(1);
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
});
