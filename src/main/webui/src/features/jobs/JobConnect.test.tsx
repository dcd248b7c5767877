import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { ApiError } from '../../api/errors';
import * as jobsApi from '../../api/jobs';
import type { JobConnect as Connect } from '../../api/types';
import { FakeWebSocket, installFakeWebSocket } from '../../test/fakeWebSocket';
import { FakeTerminal } from '../../test/fakeXterm';
import { JobConnect } from './JobConnect';

vi.mock('@xterm/xterm', async () => ({ Terminal: (await import('../../test/fakeXterm')).FakeTerminal }));
vi.mock('@xterm/addon-fit', async () => ({ FitAddon: (await import('../../test/fakeXterm')).FakeFitAddon }));

vi.mock('../../api/jobs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../api/jobs')>();
  return { ...actual, getJobConnect: vi.fn() };
});

const api = vi.mocked(jobsApi);

function connectWith(overrides: Partial<Connect> = {}): Connect {
  return {
    job: 'jabc123',
    state: 'Running',
    reachable: true,
    sshEnabled: true,
    sshHost: 'localhost',
    sshPort: 2222,
    pods: [
      {
        pod: 'main-0',
        terminal: '/api/v1/jobs/jabc123/terminal',
        login: 'tess+jabc123',
        command: 'ssh -p 2222 tess+jabc123@localhost',
        sshConfig: 'Host crater-jabc123\n  HostName localhost\n  Port 2222\n  User tess+jabc123\n  ServerAliveInterval 30\n',
      },
    ],
    ...overrides,
  };
}

const worker = {
  pod: 'worker-1',
  terminal: '/api/v1/jobs/jabc123/terminal?pod=worker-1',
  login: 'tess+jabc123+worker-1',
  command: 'ssh -p 2222 tess+jabc123+worker-1@localhost',
  sshConfig: 'Host crater-jabc123-worker-1\n  HostName localhost\n  Port 2222\n  User tess+jabc123+worker-1\n  ServerAliveInterval 30\n',
};

function renderConnect() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      { path: '/jobs/:id', element: <JobConnect jobId="jabc123" /> },
      { path: '/profile', element: <p>profile</p> },
    ],
    { initialEntries: ['/jobs/jabc123'] },
  );
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router };
}

beforeEach(() => {
  vi.clearAllMocks();
  installFakeWebSocket();
  FakeTerminal.instances = [];
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('JobConnect', () => {
  it('offers the terminal first, and the SSH command and config on the other tab', async () => {
    api.getJobConnect.mockResolvedValue(connectWith());
    renderConnect();
    const section = await screen.findByTestId('job-connect');
    expect(api.getJobConnect).toHaveBeenCalledWith('jabc123', expect.anything());
    expect(screen.getByTestId('job-connect-tab-terminal').getAttribute('aria-selected')).toBe('true');
    expect(within(section).getByTestId('job-terminal').dataset.pod).toBe('main-0');

    fireEvent.click(screen.getByTestId('job-connect-tab-ssh'));
    const ssh = screen.getByTestId('job-ssh');
    expect(within(ssh).getByTestId('job-ssh-command').textContent).toBe('ssh -p 2222 tess+jabc123@localhost');
    expect(within(ssh).getByTestId('job-ssh-config').textContent).toBe(
      'Host crater-jabc123\n  HostName localhost\n  Port 2222\n  User tess+jabc123\n  ServerAliveInterval 30',
    );
    expect(within(ssh).getByTestId('job-ssh-vscode').textContent).toBe(
      'VS Code Remote-SSH reads this entry: add it to ~/.ssh/config, then connect to the host crater-jabc123.',
    );
    expect(within(ssh).getByTestId('job-ssh-keys').getAttribute('href')).toBe('/profile#ssh-keys');
    // One pod: no pod headings.
    expect(within(ssh).queryByText('Pod main-0')).toBeNull();
  });

  it('copies the exact command and config', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    api.getJobConnect.mockResolvedValue(connectWith());
    renderConnect();
    fireEvent.click(await screen.findByTestId('job-connect-tab-ssh'));
    fireEvent.click(screen.getByTestId('job-ssh-command-copy'));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('ssh -p 2222 tess+jabc123@localhost'));
    fireEvent.click(screen.getByTestId('job-ssh-config-copy'));
    await waitFor(() => expect(writeText).toHaveBeenLastCalledWith(connectWith().pods[0]?.sshConfig));
  });

  it('lists every pod\u2019s way in when there are several', async () => {
    api.getJobConnect.mockResolvedValue(connectWith({ pods: [...connectWith().pods, worker] }));
    renderConnect();
    expect(await screen.findByTestId('job-terminal-pod')).toBeTruthy();
    fireEvent.click(screen.getByTestId('job-connect-tab-ssh'));
    const pods = screen.getAllByTestId('job-ssh-pod');
    expect(pods.map((p) => p.dataset.pod)).toEqual(['main-0', 'worker-1']);
    expect(within(pods[1]!).getByText('Pod worker-1')).toBeTruthy();
    expect(within(pods[1]!).getByTestId('job-ssh-vscode').textContent).toContain('crater-jabc123-worker-1');
  });

  it('says when SSH is off, without commands', async () => {
    api.getJobConnect.mockResolvedValue(connectWith({ sshEnabled: false }));
    renderConnect();
    fireEvent.click(await screen.findByTestId('job-connect-tab-ssh'));
    expect(screen.getByTestId('job-ssh-disabled').textContent).toBe('SSH is not enabled on this Crater. Use the Terminal tab instead.');
    expect(screen.queryByTestId('job-ssh-command')).toBeNull();
  });

  it('closes an open terminal when switching to SSH', async () => {
    api.getJobConnect.mockResolvedValue(connectWith());
    renderConnect();
    fireEvent.click(await screen.findByTestId('job-terminal-open'));
    await waitFor(() => expect(FakeWebSocket.instances).toHaveLength(1));
    const socket = FakeWebSocket.latest();
    act(() => socket.open());
    fireEvent.click(screen.getByTestId('job-connect-tab-ssh'));
    expect(socket.closedWith).toBe(1000);
    expect(FakeTerminal.latest().disposed).toBe(true);
  });

  it('shows nothing to a viewer who may not reach the job', async () => {
    api.getJobConnect.mockResolvedValue(connectWith({ reachable: false }));
    renderConnect();
    await waitFor(() => expect(api.getJobConnect).toHaveBeenCalled());
    await act(async () => {
      await Promise.resolve();
    });
    expect(screen.queryByTestId('job-connect')).toBeNull();
  });

  it('shows a failed load with a retry', async () => {
    api.getJobConnect.mockRejectedValue(new ApiError({ status: 500, code: 'Internal', title: 'Internal Server Error', detail: 'boom' }));
    renderConnect();
    expect(await screen.findByTestId('error-state')).toBeTruthy();
    api.getJobConnect.mockResolvedValue(connectWith());
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByTestId('job-connect')).toBeTruthy();
  });
});
