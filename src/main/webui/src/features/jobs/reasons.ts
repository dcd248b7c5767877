import type { Reason } from '../../api/types';
import { formatResourceMilli, resourceKind } from '../../lib/units';

/** The translation function the formatter needs (i18next's `t` fits). */
export type Translate = (key: string, values?: Record<string, unknown>) => string;

/**
 * The resource a reason is about: its `resource` field, else the name the server's sentence quotes
 * ("… would use 10 of nvidia-a100-80gb …", "… asks for 16 nvidia-a100-80gb but …"); null when neither.
 */
export function reasonResource(reason: Pick<Reason, 'message' | 'resource'>): string | null {
  if (reason.resource) return reason.resource;
  const message = reason.message ?? '';
  const of = /\bwould use \S+ of (\S+)/.exec(message);
  if (of?.[1]) return of[1];
  const asks = /\basks for \S+ (\S+)/.exec(message);
  if (asks?.[1]) return asks[1];
  return null;
}

/** A milli-unit amount in the resource's display unit, with "GiB" for memory: 8000 → "8", 2^30·1000 → "1 GiB". */
export function amountText(resource: string, milli: number): string {
  const value = formatResourceMilli(resource, milli);
  return resourceKind(resource) === 'memory' ? `${value} GiB` : value;
}

function has(numbers: Record<string, number>, ...keys: string[]): boolean {
  return keys.every((k) => typeof numbers[k] === 'number' && Number.isFinite(numbers[k]));
}

function capitalize(text: string): string {
  return text === '' ? text : text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * One reason as a sentence with its figures, in the UI language. Known codes are rebuilt from the numbers
 * (milli-units → display units); other codes, or known ones missing a figure, use the server's message.
 *
 * AccountQuotaExceeded {requested 4000, used 6000, effectiveMax 8000} on nvidia-a100-80gb →
 * "The account would use 10 of nvidia-a100-80gb; its max is 8 (6 in use, you ask for 4)"
 */
export function formatReason(reason: Reason, t: Translate): string {
  const n = reason.numbers ?? {};
  const resource = reasonResource(reason);
  const amt = (key: string) => amountText(resource ?? '', n[key] ?? 0);
  switch (reason.code) {
    case 'AccountQuotaExceeded':
      if (resource && has(n, 'requested', 'used', 'effectiveMax')) {
        const values = {
          resource,
          total: amountText(resource, (n.requested ?? 0) + (n.used ?? 0)),
          max: amt('effectiveMax'),
          used: amt('used'),
          requested: amt('requested'),
          granted: amt('granted'),
        };
        return (n.granted ?? 0) > 0
          ? t('jobs.reason.AccountQuotaExceededGranted', values)
          : t('jobs.reason.AccountQuotaExceeded', values);
      }
      break;
    case 'MemberLimitReached':
      if (resource && has(n, 'requested', 'used', 'limit')) {
        return t('jobs.reason.MemberLimitReached', {
          resource,
          total: amountText(resource, (n.requested ?? 0) + (n.used ?? 0)),
          limit: amt('limit'),
          used: amt('used'),
          requested: amt('requested'),
        });
      }
      if (has(n, 'jobs', 'limit')) return t('jobs.reason.MemberJobLimit', { jobs: n.jobs, limit: n.limit });
      if (has(n, 'sessions', 'limit')) return t('jobs.reason.MemberSessionLimit', { sessions: n.sessions, limit: n.limit });
      break;
    case 'PodLargerThanAnyNode':
      if (resource && has(n, 'requested', 'largestNode')) {
        return t('jobs.reason.PodLargerThanAnyNode', { resource, requested: amt('requested'), largest: amt('largestNode') });
      }
      break;
    case 'LargerThanFleet':
      if (resource && has(n, 'requested', 'fleet')) {
        return t('jobs.reason.LargerThanFleet', { resource, requested: amt('requested'), fleet: amt('fleet') });
      }
      break;
    case 'InsufficientCapacity':
    case 'Unschedulable':
      if (has(n, 'placed', 'pods', 'nodes')) {
        const short = Object.entries(n)
          .filter(([k]) => k.startsWith('insufficient.'))
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([k, count]) => t('jobs.reason.shortOn', { resource: k.slice('insufficient.'.length), count }));
        const values = { placed: n.placed, pods: n.pods, nodes: n.nodes, short: short.join(', ') };
        return short.length > 0
          ? t('jobs.reason.InsufficientCapacityShort', values)
          : t('jobs.reason.InsufficientCapacity', values);
      }
      break;
    default:
      break;
  }
  const message = capitalize((reason.message ?? '').trim());
  return message !== '' ? message : t('jobs.reason.unknown', { code: reason.code });
}
