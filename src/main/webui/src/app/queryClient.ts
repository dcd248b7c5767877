import { QueryClient } from '@tanstack/react-query';
import { isApiError } from '../api/errors';

/** Client errors (4xx) are answers, not glitches: retrying them would not help. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (isApiError(error) && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: shouldRetry,
        staleTime: 15_000,
      },
      mutations: {
        retry: false,
      },
    },
  });
}
