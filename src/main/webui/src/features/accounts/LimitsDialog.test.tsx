import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import * as accountsApi from '../../api/accounts';
import { ApiError } from '../../api/errors';
import { LimitsDialog } from './LimitsDialog';

vi.mock('../../api/accounts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../api/accounts')>();
  return { ...actual, getDefaultLimits: vi.fn(), putDefaultLimits: vi.fn() };
});

const api = vi.mocked(accountsApi);

const RESOURCES = [
  { key: 'memory', label: 'Memory' },
  { key: 'cpu', label: 'CPU' },
  { key: 'nvidia-a100-80gb', label: 'NVIDIA A100 80GB' },
];

beforeEach(() => {
  api.getDefaultLimits.mockReset();
  api.putDefaultLimits.mockReset();
  api.getDefaultLimits.mockResolvedValue({ resources: { memory: '32Gi' }, maxRunningJobs: null, maxInteractiveSessions: null });
});

function renderDialog(onClose = vi.fn()) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <LimitsDialog slug="vision-lab" username={null} resources={RESOURCES} canEdit onClose={onClose} />
    </QueryClientProvider>,
  );
  return onClose;
}

const input = (id: string) => screen.getByTestId(id) as HTMLInputElement;
const note = (id: string) => screen.queryByTestId(`${id}-note`)?.textContent ?? null;

describe('LimitsDialog amounts and field errors', () => {
  it('reads memory in GiB, shows what it understood and sends it with its unit', async () => {
    const onClose = renderDialog();
    await screen.findByTestId('limit-resource-memory');
    expect(input('limit-resource-memory').value).toBe('32');
    expect(note('limit-resource-memory')).toBe('= 32 GiB');

    fireEvent.change(input('limit-resource-memory'), { target: { value: '64' } });
    fireEvent.change(input('limit-resource-cpu'), { target: { value: '1,5' } });
    fireEvent.change(input('limit-resource-nvidia-a100-80gb'), { target: { value: '2' } });
    expect(note('limit-resource-memory')).toBe('= 64 GiB');
    expect(note('limit-resource-cpu')).toBe('= 1.5 cores');
    expect(note('limit-resource-nvidia-a100-80gb')).toBe('= 2 devices');

    api.putDefaultLimits.mockResolvedValue({ resources: {}, maxRunningJobs: null, maxInteractiveSessions: null });
    fireEvent.click(screen.getByTestId('limits-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.putDefaultLimits).toHaveBeenCalledWith('vision-lab', {
      resources: { memory: '64Gi', cpu: '1500m', 'nvidia-a100-80gb': '2' },
      maxRunningJobs: null,
      maxInteractiveSessions: null,
    });
  });

  it.each([
    ['limit-resource-memory', '99999Ti', 'Too large: at most 8192 TiB'],
    ['limit-resource-nvidia-a100-80gb', '-1', 'Must not be negative.'],
    ['limit-resource-nvidia-a100-80gb', '0.5', 'Enter a whole number.'],
    ['limit-resource-cpu', '1,500', '"1,500" is ambiguous: write 1.5 for one and a half, or 1500 without a comma.'],
    ['limit-max-running-jobs', '2.5', 'Enter a whole number.'],
  ])('refuses %s = %s under the field, sending nothing', async (id, text, message) => {
    renderDialog();
    await screen.findByTestId(id);
    fireEvent.change(input(id), { target: { value: text } });
    fireEvent.click(screen.getByTestId('limits-save'));
    await waitFor(() => expect(input(id).getAttribute('aria-invalid')).toBe('true'));
    expect(note(id)).toBe(message);
    expect(api.putDefaultLimits).not.toHaveBeenCalled();
  });

  it("puts the server's errors[].field messages under their fields, not in the box", async () => {
    renderDialog();
    await screen.findByTestId('limit-resource-memory');
    api.putDefaultLimits.mockRejectedValueOnce(
      new ApiError({
        status: 400,
        code: 'InvalidLimits',
        title: 'Bad Request',
        detail: 'the limits cannot be set as given',
        fieldErrors: [
          { field: 'resources.cpu', message: 'too large: at most 1000000 cores' },
          { field: 'body', message: 'something else' },
        ],
      }),
    );
    fireEvent.change(input('limit-resource-cpu'), { target: { value: '8' } });
    fireEvent.click(screen.getByTestId('limits-save'));
    await waitFor(() => expect(note('limit-resource-cpu')).toBe('too large: at most 1000000 cores'));
    expect(input('limit-resource-cpu').getAttribute('aria-invalid')).toBe('true');
    expect(input('limit-resource-memory').getAttribute('aria-invalid')).toBe('false');
    const box = screen.getByTestId('form-error');
    expect(box.dataset.code).toBe('InvalidLimits');
    expect(box.textContent).toContain('body: something else');
    expect(box.textContent).not.toContain('resources.cpu');
  });
});
