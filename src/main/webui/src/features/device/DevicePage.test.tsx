import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { json, mockFetch } from '../../test/mockFetch';
import { DevicePage } from './DevicePage';

afterEach(() => {
  vi.unstubAllGlobals();
});

const pending = {
  userCode: 'BCDF-GHJK',
  clientName: 'crater CLI on ada-laptop',
  clientAddress: '10.1.2.3',
  createdAt: new Date(Date.now() - 30_000).toISOString(),
  expiresAt: new Date(Date.now() + 570_000).toISOString(),
};

function page(entry: string) {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={[entry]}>
        <DevicePage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('DevicePage', () => {
  it('looks up the code of the link, warns, approves with the CSRF header and says it is done', async () => {
    const sent = mockFetch({
      'GET /api/v1/auth/device/BCDF-GHJK': json(pending),
      'POST /api/v1/auth/device/BCDF-GHJK/approve': json({}),
    });
    page('/device?code=bcdf-ghjk');
    expect((await screen.findByTestId('device-client')).textContent).toContain('crater CLI on ada-laptop');
    expect(screen.getByTestId('device-address').textContent).toContain('10.1.2.3');
    expect(screen.getByTestId('device-user-code').textContent).toContain('BCDF-GHJK');
    expect(screen.getByTestId('device-expires-at').textContent).toContain('in 10 minutes');
    expect(screen.getByTestId('device-warning').textContent).toContain('Approve only a code you started yourself');
    fireEvent.click(screen.getByTestId('device-approve'));
    expect((await screen.findByTestId('device-approved')).textContent).toContain('signed in as you');
    const approve = sent.find((r) => r.method === 'POST');
    expect(approve?.path).toBe('/api/v1/auth/device/BCDF-GHJK/approve');
    expect(approve?.headers['X-Requested-With']).toBe('crater');
  });

  it('starts with the code form, refuses what cannot be a code, and denies', async () => {
    const sent = mockFetch({
      'GET /api/v1/auth/device/BCDF-GHJK': json(pending),
      'POST /api/v1/auth/device/BCDF-GHJK/deny': json({}),
    });
    page('/device');
    fireEvent.change(screen.getByTestId('device-code-input'), { target: { value: 'ABCD-EFGH' } });
    fireEvent.click(screen.getByTestId('device-continue'));
    expect(screen.getByTestId('device-code-invalid').textContent).toContain('8 letters');
    expect(sent).toHaveLength(0);
    fireEvent.change(screen.getByTestId('device-code-input'), { target: { value: 'bcdf ghjk' } });
    fireEvent.click(screen.getByTestId('device-continue'));
    fireEvent.click(await screen.findByTestId('device-deny'));
    expect((await screen.findByTestId('device-denied')).textContent).toContain('got nothing');
  });

  it('says when no sign-in waits for the code, and lets another be entered', async () => {
    mockFetch({
      'GET /api/v1/auth/device/ZZZZ-ZZZZ': json({ status: 404, code: 'NotFound', title: 'Not Found', detail: 'no' }, 404),
    });
    page('/device?code=ZZZZ-ZZZZ');
    expect((await screen.findByTestId('device-not-found')).textContent).toContain('expired');
    fireEvent.click(screen.getByTestId('device-other-code'));
    expect((screen.getByTestId('device-code-input') as HTMLInputElement).value).toBe('');
  });

  it('shows an expired request as expired, with no approve button', async () => {
    mockFetch({ 'GET /api/v1/auth/device/BCDF-GHJK': json({ ...pending, expiresAt: new Date(Date.now() - 1000).toISOString() }) });
    page('/device?code=BCDF-GHJK');
    expect(await screen.findByTestId('device-expired')).toBeTruthy();
    expect(screen.queryByTestId('device-approve')).toBeNull();
  });

  it('shows other failures with a retry', async () => {
    mockFetch({
      'GET /api/v1/auth/device/BCDF-GHJK': json({ status: 500, code: 'Internal', title: 'Internal Server Error' }, 500),
    });
    page('/device?code=BCDF-GHJK');
    expect((await screen.findByTestId('error-state')).textContent).toContain('Could not look up the code');
  });
});
