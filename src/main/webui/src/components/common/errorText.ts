import { isApiError } from '../../api/errors';

/** Human-readable text for an error: the problem detail, else its title, else a fallback. */
export function describeError(error: unknown, fallback: string): string {
  if (isApiError(error)) return error.detail ?? error.title;
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}
