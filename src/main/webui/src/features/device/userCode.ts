/** The letters of a device sign-in's user code (the server's `policy.DeviceGrant.ALPHABET`). */
export const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
const LENGTH = 8;

/**
 * What a person typed, as the code's `XXXX-XXXX` form: case, spaces and dashes do not matter; null when it cannot be
 * a code (wrong length, a letter the codes never use).
 */
export function normaliseUserCode(typed: string): string | null {
  const s = typed.toUpperCase().replace(/[\s\-\u2010-\u2014]/g, '');
  if (s.length !== LENGTH) return null;
  for (const c of s) {
    if (!USER_CODE_ALPHABET.includes(c)) return null;
  }
  return `${s.slice(0, LENGTH / 2)}-${s.slice(LENGTH / 2)}`;
}
