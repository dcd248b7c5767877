import { requestJson } from './client';

export type OnboardingStepKey = 'password' | 'account' | 'people' | 'job';

export interface OnboardingStep {
  key: OnboardingStepKey;
  done: boolean;
}

/** The platform admin's first-run checklist, derived by the server from what is there. */
export interface Onboarding {
  steps: OnboardingStep[];
  complete: boolean;
  /** The team account the next steps are about; null when there is none yet. */
  account: string | null;
}

export function getOnboarding(signal?: AbortSignal): Promise<Onboarding> {
  return requestJson<Onboarding>('/onboarding', { signal });
}
