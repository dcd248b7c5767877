import type { Onboarding, OnboardingStepKey } from '../../api/onboarding';

/** One line of the checklist as the overview shows it. */
export interface ChecklistItem {
  key: OnboardingStepKey;
  done: boolean;
  /** Where to do it. */
  link: string;
  /** The first step not done yet: the one to do next. */
  next: boolean;
}

/** The built-in notebook template the last step suggests. */
export const NOTEBOOK_TEMPLATE = 'jupyter-pytorch';

/**
 * Each step with where to do it: the password on the profile, the quota and the people on the account the server
 * names (else the accounts list, where one is created), the notebook from its template.
 */
export function checklistItems(onboarding: Onboarding): ChecklistItem[] {
  const account = onboarding.account ? `/accounts/${encodeURIComponent(onboarding.account)}` : '/accounts';
  const links: Record<OnboardingStepKey, string> = {
    password: '/profile',
    account,
    people: onboarding.account ? account : '/admin/users',
    job: `/jobs/new?template=${NOTEBOOK_TEMPLATE}`,
  };
  const firstOpen = onboarding.steps.find((s) => !s.done)?.key;
  return onboarding.steps.map((s) => ({ key: s.key, done: s.done, link: links[s.key], next: s.key === firstOpen }));
}

/** "2 of 4 done". */
export function progress(onboarding: Onboarding): { done: number; total: number } {
  return { done: onboarding.steps.filter((s) => s.done).length, total: onboarding.steps.length };
}
