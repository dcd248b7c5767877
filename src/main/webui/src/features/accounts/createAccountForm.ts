import type { AccountCreate } from '../../api/types';
import { isPast, localInputToIso } from '../../lib/time';

export const SLUG_PATTERN = /^[a-z0-9]([a-z0-9-]{0,48}[a-z0-9])?$/;

/** A slug proposed from the name: "Vision Lab (2026)" → "vision-lab-2026"; at most 50 characters. */
export function slugFromName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50)
    .replace(/-+$/, '');
}

export interface CreateAccountValues {
  name: string;
  slug: string;
  expires: string;
  admin: string;
}

/** The problems the console sees before sending (i18n keys per field), and the body when there are none. */
export function checkCreateAccount(
  v: CreateAccountValues,
  now: number = Date.now(),
): { errors: Partial<Record<keyof CreateAccountValues, string>>; body: AccountCreate | null } {
  const errors: Partial<Record<keyof CreateAccountValues, string>> = {};
  const slug = v.slug.trim();
  if (v.name.trim() === '') errors.name = 'accountsAdmin.nameRequired';
  if (!SLUG_PATTERN.test(slug) || slug === 'personal' || slug === 'backfill' || slug.startsWith('u-')) {
    errors.slug = 'accounts.slugInvalid';
  }
  const expiresAt = localInputToIso(v.expires);
  if (v.expires.trim() !== '' && (expiresAt === null || isPast(expiresAt, now))) errors.expires = 'accountsAdmin.expiryPast';
  if (Object.keys(errors).length > 0) return { errors, body: null };
  const body: AccountCreate = { slug, name: v.name.trim() };
  if (expiresAt) body.expiresAt = expiresAt;
  if (v.admin.trim() !== '') body.admin = v.admin.trim().toLowerCase();
  return { errors, body };
}
