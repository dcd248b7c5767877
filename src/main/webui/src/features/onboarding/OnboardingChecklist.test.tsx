import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import * as onboardingApi from '../../api/onboarding';
import { ApiError } from '../../api/errors';
import type { Onboarding } from '../../api/onboarding';
import { OnboardingChecklist } from './OnboardingChecklist';
import { checklistItems, progress } from './checklist';

vi.mock('../../api/onboarding', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../api/onboarding')>();
  return { ...actual, getOnboarding: vi.fn() };
});
const api = vi.mocked(onboardingApi);

function state(done: boolean[], account: string | null = null): Onboarding {
  const keys = ['password', 'account', 'people', 'job'] as const;
  return { steps: keys.map((key, i) => ({ key, done: done[i] ?? false })), complete: done.every(Boolean), account };
}

describe('checklistItems', () => {
  const cases = [
    {
      name: 'nothing done, no account yet',
      onboarding: state([false, false, false, false]),
      links: ['/profile', '/accounts', '/admin/users', '/jobs/new?template=jupyter-pytorch'],
      next: 'password',
    },
    {
      name: 'password changed, an account exists',
      onboarding: state([true, false, false, false], 'vision-lab'),
      links: ['/profile', '/accounts/vision-lab', '/accounts/vision-lab', '/jobs/new?template=jupyter-pytorch'],
      next: 'account',
    },
    {
      name: 'only the notebook left',
      onboarding: state([true, true, true, false], 'vision-lab'),
      links: ['/profile', '/accounts/vision-lab', '/accounts/vision-lab', '/jobs/new?template=jupyter-pytorch'],
      next: 'job',
    },
  ];
  it.each(cases)('$name', ({ onboarding, links, next }) => {
    const items = checklistItems(onboarding);
    expect(items.map((i) => i.link)).toEqual(links);
    expect(items.filter((i) => i.next).map((i) => i.key)).toEqual([next]);
  });
  it('counts what is done', () => {
    expect(progress(state([true, false, true, false]))).toEqual({ done: 2, total: 4 });
  });
});

function renderChecklist() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <OnboardingChecklist />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  api.getOnboarding.mockReset();
});

describe('OnboardingChecklist', () => {
  it('ticks the steps the server reports done and links the next ones', async () => {
    api.getOnboarding.mockResolvedValue(state([true, false, false, false], 'vision-lab'));
    renderChecklist();
    const steps = await screen.findAllByTestId('onboarding-step');
    expect(steps.map((s) => [s.dataset.step, s.dataset.done])).toEqual([
      ['password', 'true'],
      ['account', 'false'],
      ['people', 'false'],
      ['job', 'false'],
    ]);
    expect(screen.getByTestId('onboarding-progress').textContent).toBe('1 of 4 done');
    expect(screen.queryByTestId('onboarding-go-password')).toBeNull();
    expect(screen.getByTestId('onboarding-go-account').getAttribute('href')).toBe('/accounts/vision-lab');
    expect(screen.getByText('Change the generated password')).toBeTruthy();
  });

  it('goes away when every step is done', async () => {
    api.getOnboarding.mockResolvedValue(state([true, true, true, true], 'vision-lab'));
    renderChecklist();
    await vi.waitFor(() => expect(screen.queryByRole('status')).toBeNull());
    expect(api.getOnboarding).toHaveBeenCalled();
    expect(screen.queryByTestId('onboarding')).toBeNull();
  });

  it('says when it cannot be loaded', async () => {
    api.getOnboarding.mockRejectedValue(
      new ApiError({ status: 500, code: 'InternalError', title: 'Internal Server Error', detail: 'boom' }),
    );
    renderChecklist();
    expect(await screen.findByText('Could not load the first steps.')).toBeTruthy();
  });
});
