import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import * as accountsApi from '../../api/accounts';
import { ApiError } from '../../api/errors';
import type { AccountFeatures, User } from '../../api/types';
import { CurrentUserContext } from '../auth/session';
import { FeaturesSection } from './FeaturesSection';

vi.mock('../../api/accounts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../api/accounts')>();
  return { ...actual, getAccountFeatures: vi.fn(), putAccountFeatures: vi.fn() };
});

const api = vi.mocked(accountsApi);

beforeEach(() => {
  api.getAccountFeatures.mockReset();
  api.putAccountFeatures.mockReset();
});

const ADMIN: User = { id: 'u1', username: 'admin', displayName: 'Admin', role: 'admin' };
const MEMBER: User = { id: 'u2', username: 'alice', displayName: 'Alice', role: 'user' };
const ALL_ON = { jupyter: true, webide: true, custom: true, pytorch: true, inference: true, ssh: true, 'high-priority': true };

const DEFAULTS: AccountFeatures = {
  features: {},
  ingressBandwidth: null,
  egressBandwidth: null,
  effective: { features: ALL_ON, ingressBandwidth: null, egressBandwidth: '1G' },
};

function renderSection(user: User) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <CurrentUserContext.Provider value={user}>
        <FeaturesSection slug="vision-lab" />
      </CurrentUserContext.Provider>
    </QueryClientProvider>,
  );
}

describe('FeaturesSection', () => {
  it('shows what is in force and says the account uses the defaults, without editing for members', async () => {
    api.getAccountFeatures.mockResolvedValue(DEFAULTS);
    renderSection(MEMBER);
    expect(screen.getByRole('status')).toBeTruthy();
    await screen.findByTestId('features-table');
    expect(screen.getByTestId('features-defaults')).toBeTruthy();
    expect(screen.getByTestId('feature-ssh').textContent).toBe('On');
    expect(screen.getByTestId('features-ingressBandwidth').textContent).toBe('No cap');
    expect(screen.getByTestId('features-egressBandwidth').textContent).toBe('1G');
    expect(screen.queryByTestId('features-edit')).toBeNull();
  });

  it('marks what the account turned off as its own', async () => {
    api.getAccountFeatures.mockResolvedValue({
      features: { pytorch: false },
      ingressBandwidth: '100M',
      egressBandwidth: null,
      effective: { features: { ...ALL_ON, pytorch: false }, ingressBandwidth: '100M', egressBandwidth: '1G' },
    });
    renderSection(MEMBER);
    const pytorch = await screen.findByTestId('feature-pytorch');
    expect(pytorch.textContent).toBe('Off');
    expect(pytorch.nextElementSibling?.textContent).toBe('set for this account');
    expect(screen.getByTestId('feature-jupyter').nextElementSibling?.textContent).toBe('platform default');
    expect(screen.queryByTestId('features-defaults')).toBeNull();
  });

  it('leaves the section out for someone outside the account and shows other failures', async () => {
    api.getAccountFeatures.mockRejectedValue(new ApiError({ status: 403, code: 'NotAMember', title: 'Forbidden', detail: 'no' }));
    renderSection(MEMBER);
    await waitFor(() => expect(screen.queryByTestId('features')).toBeNull());
  });

  it('shows a load failure with a retry', async () => {
    api.getAccountFeatures.mockRejectedValue(new ApiError({ status: 500, code: 'InternalError', title: 'Error', detail: 'boom' }));
    renderSection(MEMBER);
    expect(await screen.findByTestId('error-state')).toBeTruthy();
  });

  it('lets a platform admin switch a kind off and cap the traffic, refusing a bad rate before sending', async () => {
    api.getAccountFeatures.mockResolvedValue(DEFAULTS);
    api.putAccountFeatures.mockResolvedValue({
      features: { pytorch: false },
      ingressBandwidth: '100M',
      egressBandwidth: null,
      effective: { features: { ...ALL_ON, pytorch: false }, ingressBandwidth: '100M', egressBandwidth: '1G' },
    });
    renderSection(ADMIN);
    fireEvent.click(await screen.findByTestId('features-edit'));
    fireEvent.click(screen.getByTestId('feature-switch-pytorch'));
    fireEvent.change(screen.getByTestId('features-input-ingressBandwidth'), { target: { value: '100Mbps' } });
    fireEvent.click(screen.getByTestId('features-save'));
    expect(await screen.findByText(/Enter a rate such as 100M/)).toBeTruthy();
    expect(api.putAccountFeatures).not.toHaveBeenCalled();

    fireEvent.change(screen.getByTestId('features-input-ingressBandwidth'), { target: { value: '100M' } });
    fireEvent.click(screen.getByTestId('features-save'));
    await waitFor(() =>
      expect(api.putAccountFeatures).toHaveBeenCalledWith('vision-lab', { features: { pytorch: false }, ingressBandwidth: '100M' }),
    );
    await waitFor(() => expect(screen.queryByTestId('features-dialog')).toBeNull());
    expect(screen.getByTestId('feature-pytorch').textContent).toBe('Off');
  });
});
