/**
 * The server's username rules (io.crater.identity.Usernames), mirrored so the form can say them before sending:
 * the name is trimmed and lower-cased, then must be 2 to 64 of a-z, 0-9, '.', '_' and '-', with at least one
 * letter or digit. The server checks again and has the last word.
 */
export const USERNAME_MIN = 2;
export const USERNAME_MAX = 64;

const VALID = /^[a-z0-9._-]{2,64}$/;
const HAS_ALNUM = /[a-z0-9]/;

/** What the server stores for a typed username. */
export function normalizeUsername(raw: string): string {
  return raw.trim().toLowerCase();
}

export type UsernameProblem = 'required' | 'length' | 'characters' | 'noLetterOrDigit';

/** Why the server would refuse this username, or null when it would take it. */
export function usernameProblem(raw: string): UsernameProblem | null {
  const name = normalizeUsername(raw);
  if (name === '') return 'required';
  if (name.length < USERNAME_MIN || name.length > USERNAME_MAX) return 'length';
  if (!/^[a-z0-9._-]*$/.test(name)) return 'characters';
  if (!HAS_ALNUM.test(name)) return 'noLetterOrDigit';
  return VALID.test(name) ? null : 'characters';
}
