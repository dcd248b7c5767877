import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import * as accountsApi from '../../api/accounts';
import { ApiError } from '../../api/errors';
import type { TimeLimits, User } from '../../api/types';
import { CurrentUserContext } from '../auth/session';
import { TimeLimitsSection } from './TimeLimitsSection';

vi.mock('../../api/accounts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../api/accounts')>();
  return { ...actual, getTimeLimits: vi.fn(), putTimeLimits: vi.fn() };
});

const api = vi.mocked(accountsApi);

beforeEach(() => {
  api.getTimeLimits.mockReset();
  api.putTimeLimits.mockReset();
});

const ADMIN: User = { id: 'u1', username: 'admin', displayName: 'Admin', role: 'admin' };
const MEMBER: User = { id: 'u2', username: 'alice', displayName: 'Alice', role: 'user' };

const LIMITS: TimeLimits = {
  interactiveDefault: null,
  interactiveMax: '2d',
  batchDefault: null,
  batchMax: null,
  effective: { interactiveDefault: '24h', interactiveMax: '2d', batchDefault: '7d', batchMax: '30d' },
};

function renderSection(user: User) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <CurrentUserContext.Provider value={user}>
        <TimeLimitsSection slug="vision-lab" />
      </CurrentUserContext.Provider>
    </QueryClientProvider>,
  );
  return client;
}

function input(field: string): HTMLInputElement {
  return screen.getByTestId(`time-limits-input-${field}`) as HTMLInputElement;
}

function cell(field: string): { value: string | null; source: string | undefined; marker: string | null | undefined } {
  const el = screen.getByTestId(`time-limit-${field}`);
  return { value: el.textContent, source: el.dataset.source, marker: el.nextElementSibling?.textContent };
}

describe('TimeLimitsSection', () => {
  it('shows the limits in effect and where each comes from, without editing for members', async () => {
    api.getTimeLimits.mockResolvedValue(LIMITS);
    renderSection(MEMBER);
    expect(screen.getByRole('status')).toBeTruthy();
    await screen.findByTestId('time-limits-table');

    expect(cell('interactiveDefault')).toEqual({ value: '24h', source: 'platform', marker: 'platform default' });
    expect(cell('interactiveMax')).toEqual({ value: '2d', source: 'account', marker: 'set for this account' });
    expect(cell('batchDefault')).toEqual({ value: '7d', source: 'platform', marker: 'platform default' });
    expect(cell('batchMax')).toEqual({ value: '30d', source: 'platform', marker: 'platform default' });
    expect(screen.getByText('Jupyter and VS Code jobs')).toBeTruthy();
    expect(screen.getByText('Custom and PyTorch jobs')).toBeTruthy();
    expect(screen.queryByTestId('time-limits-edit')).toBeNull();
    expect(api.getTimeLimits).toHaveBeenCalledWith('vision-lab', expect.anything());
  });

  it('leaves the section out when the caller may not read the limits', async () => {
    api.getTimeLimits.mockRejectedValue(
      new ApiError({ status: 403, code: 'NotAMember', title: 'Forbidden', detail: "you are not a member of account 'vision-lab'" }),
    );
    renderSection(MEMBER);
    await waitFor(() => expect(screen.queryByTestId('time-limits')).toBeNull());
    expect(screen.queryByTestId('error-state')).toBeNull();
  });

  it('shows other load failures with a retry', async () => {
    api.getTimeLimits.mockRejectedValueOnce(new ApiError({ status: 500, code: 'ServerError', title: 'Internal Server Error' }));
    api.getTimeLimits.mockResolvedValueOnce(LIMITS);
    renderSection(ADMIN);
    const error = await screen.findByTestId('error-state');
    expect(within(error).getByText('Could not load the job time limits.')).toBeTruthy();
    expect(screen.queryByTestId('time-limits-edit')).toBeNull();
    fireEvent.click(within(error).getByRole('button', { name: 'Retry' }));
    await screen.findByTestId('time-limits-table');
    expect(screen.getByTestId('time-limits-edit')).toBeTruthy();
  });

  it('lets a platform admin edit the limits: checks them, shows server errors and saves', async () => {
    api.getTimeLimits.mockResolvedValue(LIMITS);
    const client = renderSection(ADMIN);
    fireEvent.click(await screen.findByTestId('time-limits-edit'));
    const dialog = within(screen.getByTestId('time-limits-dialog'));
    expect(dialog.getByText('Job time limits')).toBeTruthy();

    // Own values are filled in; the others show the limit in effect.
    expect(input('interactiveDefault').value).toBe('');
    expect(input('interactiveDefault').placeholder).toBe('24h');
    expect(input('interactiveMax').value).toBe('2d');
    expect(input('interactiveMax').placeholder).toBe("Platform's");
    expect(input('batchDefault').placeholder).toBe('7d');
    expect(input('batchMax').placeholder).toBe('30d');

    // Checked before anything is sent.
    fireEvent.change(input('interactiveDefault'), { target: { value: '3d' } });
    fireEvent.change(input('batchDefault'), { target: { value: '12 hours' } });
    fireEvent.click(screen.getByTestId('time-limits-save'));
    expect(await dialog.findByText('The default must not be longer than the max.')).toBeTruthy();
    expect(dialog.getByText('Enter a duration such as 90m, 12h or 3d, or leave empty.')).toBeTruthy();
    expect(input('interactiveDefault').getAttribute('aria-invalid')).toBe('true');
    expect(input('batchDefault').getAttribute('aria-invalid')).toBe('true');
    expect(input('batchMax').getAttribute('aria-invalid')).toBe('false');
    expect(api.putTimeLimits).not.toHaveBeenCalled();

    // An edited field loses its old message.
    fireEvent.change(input('interactiveDefault'), { target: { value: '8h' } });
    expect(input('interactiveDefault').getAttribute('aria-invalid')).toBe('false');

    // The server's field errors go to the inputs they name.
    api.putTimeLimits.mockRejectedValueOnce(
      new ApiError({
        status: 400,
        code: 'InvalidTimeLimits',
        title: 'Bad Request',
        detail: 'the time limits are not valid',
        fieldErrors: [{ field: 'batchMax', message: "between 1s and the platform's 30d" }],
      }),
    );
    fireEvent.change(input('batchDefault'), { target: { value: '1d' } });
    fireEvent.change(input('batchMax'), { target: { value: '60d' } });
    fireEvent.click(screen.getByTestId('time-limits-save'));
    await waitFor(() => expect(input('batchMax').getAttribute('aria-invalid')).toBe('true'));
    expect(input('batchDefault').getAttribute('aria-invalid')).toBe('false');
    expect(dialog.getByTestId('form-error').dataset.code).toBe('InvalidTimeLimits');
    expect(api.putTimeLimits).toHaveBeenLastCalledWith('vision-lab', {
      interactiveDefault: '8h',
      interactiveMax: '2d',
      batchDefault: '1d',
      batchMax: '60d',
    });

    // Saved: cleared fields are left out so the platform's apply, and the table shows the answer.
    const saved: TimeLimits = {
      interactiveDefault: '8h',
      interactiveMax: null,
      batchDefault: '1d',
      batchMax: '3d',
      effective: { interactiveDefault: '8h', interactiveMax: '7d', batchDefault: '1d', batchMax: '3d' },
    };
    api.putTimeLimits.mockResolvedValueOnce(saved);
    fireEvent.change(input('interactiveMax'), { target: { value: '' } });
    fireEvent.change(input('batchMax'), { target: { value: '3d' } });
    fireEvent.click(screen.getByTestId('time-limits-save'));
    await waitFor(() => expect(screen.queryByTestId('time-limits-dialog')).toBeNull());
    expect(api.putTimeLimits).toHaveBeenLastCalledWith('vision-lab', { interactiveDefault: '8h', batchDefault: '1d', batchMax: '3d' });
    expect(cell('interactiveDefault')).toEqual({ value: '8h', source: 'account', marker: 'set for this account' });
    expect(cell('interactiveMax')).toEqual({ value: '7d', source: 'platform', marker: 'platform default' });
    expect(cell('batchMax').value).toBe('3d');
    expect(client.getQueryData(['accounts', 'detail', 'vision-lab', 'time-limits'])).toEqual(saved);
    expect(api.getTimeLimits).toHaveBeenCalledTimes(1);
  });
});
