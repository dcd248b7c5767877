import type { BadgeTone } from '../../components/common/StatusBadge';
import type { Role, TemplateSummary } from '../../api/types';

/** What a card shows as the template's reach: built-in, or its visibility. */
export type TemplateBadge = 'builtin' | 'private' | 'account' | 'public';

export function templateBadge(t: Pick<TemplateSummary, 'builtin' | 'visibility'>): TemplateBadge {
  return t.builtin ? 'builtin' : t.visibility;
}

export const TEMPLATE_BADGE_TONES: Record<TemplateBadge, BadgeTone> = {
  builtin: 'info',
  private: 'neutral',
  account: 'success',
  public: 'warning',
};

/**
 * Whether the caller may change or delete the template. The list answer has no `canEdit` (only the full
 * template does), so unless the server sends one it follows the server's rule: never a built-in one; its
 * author; a platform admin for shared (non-private) ones. The server checks again on delete.
 */
export function canEditTemplate(t: TemplateSummary & { canEdit?: unknown }, user: { username: string; role: Role }): boolean {
  if (typeof t.canEdit === 'boolean') return t.canEdit;
  if (t.builtin) return false;
  if (t.owner !== null && t.owner === user.username) return true;
  return user.role === 'admin' && t.visibility !== 'private';
}

/** `/jobs/new` for this template, pinned to a version when one is given. */
export function templateUseLink(id: string, version?: number): string {
  const search = new URLSearchParams({ template: id });
  if (version !== undefined) search.set('version', String(version));
  return `/jobs/new?${search.toString()}`;
}

/** The version asked for in `?version=`: a positive whole number, else undefined (the latest). */
export function parseVersionParam(text: string | null): number | undefined {
  if (text === null || !/^[0-9]{1,9}$/.test(text)) return undefined;
  const n = Number(text);
  return n >= 1 ? n : undefined;
}
