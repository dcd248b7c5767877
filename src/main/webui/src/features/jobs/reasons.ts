import type { Reason } from '../../api/types';
import { formatBytes, formatResourceMilli, resourceKind, formatSignedMoney } from '../../lib/units';
import { durationText } from './waitText';

/** The translation function the formatter needs (i18next's `t` fits). */
export type Translate = (key: string, values?: Record<string, unknown>) => string;

/**
 * The resource a reason is about: its `args.resource`, else the name the server's sentence quotes
 * ("… would use 10 of nvidia-a100-80gb …", "… asks for 16 nvidia-a100-80gb but …"); null when neither.
 */
export function reasonResource(reason: Pick<Reason, 'message' | 'args'>): string | null {
  if (reason.args?.resource) return reason.args.resource;
  const message = reason.message ?? '';
  const of = /\bwould use \S+ of (\S+)/.exec(message);
  if (of?.[1]) return of[1];
  const asks = /\basks for \S+ (\S+)/.exec(message);
  if (asks?.[1]) return asks[1];
  const enough = /\benough (\S+) is free\b/.exec(message);
  if (enough?.[1]) return enough[1];
  return null;
}

/** A milli-unit amount in the resource's display unit, with "GiB" for memory: 8000 → "8", 2^30·1000 → "1 GiB". */
export function amountText(resource: string, milli: number): string {
  const value = formatResourceMilli(resource, milli);
  return resourceKind(resource) === 'memory' ? `${value} GiB` : value;
}

/** Display name of a resource or accelerator model key (the key itself when unknown). */
export type NameOf = (key: string) => string;

const plain: NameOf = (key) => key;

/** A resource as people name it: "CPU", "Memory", an accelerator model by its catalogue display name. */
export function resourceLabel(resource: string, t: Translate, nameOf: NameOf = plain): string {
  if (resource === 'cpu') return t('resources.cpu');
  if (resource === 'memory') return t('resources.memory');
  return nameOf(resource);
}

function has(numbers: Record<string, number>, ...keys: string[]): boolean {
  return keys.every((k) => typeof numbers[k] === 'number' && Number.isFinite(numbers[k]));
}

/** The first group of `pattern` in the reason's message, or null. */
function quoted(reason: Reason, pattern: RegExp): RegExpExecArray | null {
  return pattern.exec(reason.message ?? '');
}

function capitalize(text: string): string {
  return text === '' ? text : text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * One reason as a sentence with its figures, in the UI language. Known codes are rebuilt from the numbers
 * (milli-units → display units) and the names in `args` (else those the server's sentence quotes, for reasons
 * stored before they had arguments); resources are named by `nameOf` (accelerator models by their catalogue
 * display name). Other codes, or known ones missing a figure, use the server's message. `now` (epoch ms) dates
 * reasons that say "since when".
 *
 * AccountQuotaExceeded {requested 4000, used 6000, effectiveMax 8000} on nvidia-a100-80gb →
 * "The account would use 10 of NVIDIA A100 80GB; its max is 8 (6 in use, you ask for 4)"
 */
export function formatReason(reason: Reason, t: Translate, now: number = Date.now(), nameOf: NameOf = plain): string {
  const n = reason.numbers ?? {};
  const a = reason.args ?? {};
  const key = reasonResource(reason);
  const resource = key === null ? null : resourceLabel(key, t, nameOf);
  const amt = (k: string) => amountText(key ?? '', n[k] ?? 0);
  switch (reason.code) {
    case 'AccountQuotaExceeded':
      if (resource && has(n, 'requested', 'used', 'effectiveMax')) {
        const values = {
          resource,
          total: amountText(key ?? '', (n.requested ?? 0) + (n.used ?? 0)),
          max: amt('effectiveMax'),
          used: amt('used'),
          requested: amt('requested'),
          granted: amt('granted'),
        };
        return (n.granted ?? 0) > 0 ? t('jobs.reason.AccountQuotaExceededGranted', values) : t('jobs.reason.AccountQuotaExceeded', values);
      }
      break;
    case 'MemberLimitReached':
      if (resource && has(n, 'requested', 'used', 'limit')) {
        return t('jobs.reason.MemberLimitReached', {
          resource,
          total: amountText(key ?? '', (n.requested ?? 0) + (n.used ?? 0)),
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
          .map(([k, count]) => t('jobs.reason.shortOn', { resource: resourceLabel(k.slice('insufficient.'.length), t, nameOf), count }));
        const values = { placed: n.placed, pods: n.pods, nodes: n.nodes, short: short.join(', ') };
        return short.length > 0 ? t('jobs.reason.InsufficientCapacityShort', values) : t('jobs.reason.InsufficientCapacity', values);
      }
      break;
    case 'Fragmentation':
      if (has(n, 'largestFreeBlock', 'needs', 'totalFree')) {
        const largest = amt('largestFreeBlock');
        return t('jobs.reason.Fragmentation', {
          count: Number(largest),
          resource: resource ?? '',
          largest,
          needs: amt('needs'),
          total: amt('totalFree'),
        });
      }
      break;
    case 'CapacityHeldForOlderJob':
      if (has(n, 'waitedSeconds', 'toleranceSeconds')) {
        return t('jobs.reason.CapacityHeldForOlderJob', {
          waited: durationText(n.waitedSeconds ?? 0, t),
          tolerance: durationText(n.toleranceSeconds ?? 0, t),
        });
      }
      break;
    case 'CreatingObjects':
      return t('jobs.reason.CreatingObjects');
    case 'VolcanoQueueFull':
      return t('jobs.reason.VolcanoQueueFull');
    case 'GangWaiting':
      if (has(n, 'placed', 'total')) return t('jobs.reason.GangWaiting', { placed: n.placed, total: n.total });
      break;
    case 'ImagePulling': {
      const image = a.image ?? quoted(reason, /\bpulling image (\S+)/)?.[1];
      if (has(n, 'sinceEpochSeconds')) {
        const duration = durationText(now / 1000 - (n.sinceEpochSeconds ?? 0), t);
        return image ? t('jobs.reason.ImagePulling', { image, duration }) : t('jobs.reason.ImagePullingAny', { duration });
      }
      break;
    }
    case 'ImagePullFailed': {
      if (a.image && a.detail) return t('jobs.reason.ImagePullFailed', { image: a.image, detail: a.detail });
      const m = quoted(reason, /^image (\S+) cannot be pulled: ([\s\S]+)$/);
      return m?.[1] && m[2] ? t('jobs.reason.ImagePullFailed', { image: m[1], detail: m[2].trim() }) : t('jobs.reason.ImagePullFailedAny');
    }
    case 'VolumeMountFailed': {
      const detail = (a.detail ?? reason.message ?? '').trim();
      return detail !== '' ? t('jobs.reason.VolumeMountFailed', { detail }) : t('jobs.reason.VolumeMountFailedAny');
    }
    case 'NodeNotReady': {
      if (a.pod && a.node) return t('jobs.reason.NodeNotReady', { pod: a.pod, node: a.node });
      const m = quoted(reason, /\bpod (\S+) is on node (\S+?),? which is not ready/);
      return m?.[1] && m[2] ? t('jobs.reason.NodeNotReady', { pod: m[1], node: m[2] }) : t('jobs.reason.NodeNotReadyAny');
    }
    case 'NodeCordoned': {
      if (!a.node) return t('jobs.reason.NodeCordonedAny');
      const why = a.reason && a.reason !== '' ? a.reason : '—';
      return a.by
        ? t('jobs.reason.NodeCordoned', { node: a.node, by: a.by, reason: why })
        : t('jobs.reason.NodeCordonedNoBy', { node: a.node, reason: why });
    }
    case 'NodeTainted':
      if (has(n, 'nodes', 'free') && a.taint) {
        return t('jobs.reason.NodeTainted', { count: n.nodes, free: amt('free'), resource: resource ?? '', taint: a.taint });
      }
      break;
    case 'NodeExclusive':
      if (has(n, 'nodes', 'free')) return t('jobs.reason.NodeExclusive', { count: n.nodes, free: amt('free'), resource: resource ?? '' });
      break;
    case 'TargetNodesBusy':
      if (has(n, 'targetNodes', 'free') && a.nodes) {
        const values = { nodes: a.nodes, count: n.targetNodes, free: amt('free'), resource: resource ?? '', missing: n.missing ?? 0 };
        return (n.missing ?? 0) > 0 ? t('jobs.reason.TargetNodesBusyMissing', values) : t('jobs.reason.TargetNodesBusy', values);
      }
      break;
    case 'NodesAvoided':
      if (has(n, 'nodes', 'free') && a.nodes) {
        return t('jobs.reason.NodesAvoided', { nodes: a.nodes, count: n.nodes, free: amt('free'), resource: resource ?? '' });
      }
      break;
    case 'WaitsForJobsWithoutTimeLimit':
      if (has(n, 'jobs')) return t('jobs.reason.WaitsForJobsWithoutTimeLimit', { count: n.jobs });
      break;
    case 'CannotStartOnIdleCluster': {
      // The exact reason in the way: the one admission gives with every running job ended.
      const { cause, ...rest } = a;
      if (cause && cause !== 'CannotStartOnIdleCluster') {
        const inner = formatReason({ code: cause, message: '', numbers: n, args: rest }, t, now, nameOf);
        if (inner !== t('jobs.reason.unknown', { code: cause })) return t('jobs.reason.CannotStartBecause', { cause: inner });
      }
      return t('jobs.reason.CannotStartOnIdleCluster');
    }
    case 'AccountExpired':
      if (a.account && a.expiredAt) return t('jobs.reason.AccountExpired', { account: a.account, at: a.expiredAt.slice(0, 10) });
      break;
    case 'ModelNotApproved':
      if (a.model) return t('jobs.reason.ModelNotApproved', { model: nameOf(a.model) });
      break;
    case 'ModelRetired':
      if (a.model && a.retiredAt) return t('jobs.reason.ModelRetired', { model: nameOf(a.model), at: a.retiredAt.slice(0, 10) });
      break;
    case 'InvalidSpec':
      return t('jobs.reason.InvalidSpec');
    case 'FeatureDisabled':
      if (a.feature && a.account)
        return t('jobs.reason.FeatureDisabled', {
          feature: t(`accounts.features.names.${a.feature}`, { defaultValue: a.feature }),
          account: a.account,
        });
      break;
    case 'WaitsForBudget':
      if (a.periodEnds) return t('jobs.reason.WaitsForBudget', { periodEnds: a.periodEnds.slice(0, 16).replace('T', ' ') + ' UTC' });
      break;
    case 'BudgetExhausted':
      if (has(n, 'remainingMicros', 'projectedMicros') && a.currency && a.periodEnds)
        return t('jobs.reason.BudgetExhausted', {
          projected: formatSignedMoney(n.projectedMicros ?? 0),
          remaining: formatSignedMoney(n.remainingMicros ?? 0),
          currency: a.currency,
          periodEnds: a.periodEnds.slice(0, 16).replace('T', ' ') + ' UTC',
        });
      break;
    case 'WaitsForAllotment':
      if (a.periodEnds) return t('jobs.reason.WaitsForAllotment', { periodEnds: a.periodEnds.slice(0, 16).replace('T', ' ') + ' UTC' });
      break;
    case 'AllotmentExhausted':
      if (has(n, 'remainingMicros', 'projectedMicros', 'allotmentMicros') && a.currency && a.periodEnds)
        return t('jobs.reason.AllotmentExhausted', {
          projected: formatSignedMoney(n.projectedMicros ?? 0),
          remaining: formatSignedMoney(n.remainingMicros ?? 0),
          allotment: formatSignedMoney(n.allotmentMicros ?? 0),
          currency: a.currency,
          periodEnds: a.periodEnds.slice(0, 16).replace('T', ' ') + ' UTC',
        });
      break;
    case 'TooManyJobsAhead':
      if (has(n, 'jobsAhead', 'decisions')) return t('jobs.reason.TooManyJobsAhead', { jobsAhead: n.jobsAhead, decisions: n.decisions });
      break;
    case 'BeyondHorizon':
      if (has(n, 'horizonDays')) return t('jobs.reason.BeyondHorizon', { count: n.horizonDays });
      break;
    case 'GpuXidFatal':
    case 'GpuXidApplication':
      if (has(n, 'gpu', 'xid')) return t(`jobs.reason.${reason.code}`, { gpu: n.gpu, xid: n.xid });
      break;
    case 'GpuXidHardware':
    case 'GpuXidRepeated':
      if (has(n, 'gpu', 'xid', 'count', 'threshold', 'windowSeconds'))
        return t(`jobs.reason.${reason.code}`, {
          gpu: n.gpu,
          xid: n.xid,
          count: n.count,
          threshold: n.threshold,
          window: durationText(n.windowSeconds ?? 0, t),
        });
      break;
    case 'GpuEccUncorrectable':
      if (has(n, 'gpu', 'errors')) return t('jobs.reason.GpuEccUncorrectable', { gpu: n.gpu, errors: n.errors });
      break;
    case 'JobsFailingOnNode':
      if (has(n, 'jobs', 'suspectAt', 'quarantineAt', 'windowSeconds'))
        return t('jobs.reason.JobsFailingOnNode', {
          jobs: n.jobs,
          suspectAt: n.suspectAt,
          quarantineAt: n.quarantineAt,
          window: durationText(n.windowSeconds ?? 0, t),
        });
      break;
    case 'DownloadLimitReached':
      if (has(n, 'active', 'maxConcurrent', 'started', 'maxPerWindow', 'windowSeconds'))
        return t('jobs.reason.DownloadLimitReached', {
          active: n.active,
          maxConcurrent: n.maxConcurrent,
          started: n.started,
          maxPerWindow: n.maxPerWindow,
          window: durationText(n.windowSeconds ?? 0, t),
        });
      break;
    case 'FileQuotaExceeded':
      if (has(n, 'usedBytes', 'addBytes', 'limitBytes', 'usedFiles', 'addFiles', 'limitFiles'))
        return (n.limitBytes ?? -1) >= 0 && (n.usedBytes ?? 0) + (n.addBytes ?? 0) > (n.limitBytes ?? 0)
          ? t('jobs.reason.FileQuotaExceededBytes', {
              used: formatBytes(n.usedBytes ?? 0),
              add: formatBytes(n.addBytes ?? 0),
              limit: formatBytes(n.limitBytes ?? 0),
            })
          : t('jobs.reason.FileQuotaExceededFiles', { used: n.usedFiles, add: n.addFiles, limit: n.limitFiles });
      break;
    default:
      break;
  }
  const message = capitalize((reason.message ?? '').trim());
  return message !== '' ? message : t('jobs.reason.unknown', { code: reason.code });
}
