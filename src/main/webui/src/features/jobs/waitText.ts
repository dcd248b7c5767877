import type { AheadJob, Suggestion, WaitEstimate, WaitPosition, WaitsForJob } from '../../api/types';
import type { Translate } from './reasons';

/** Display name of a resource or accelerator model key (the key itself when unknown). */
export type NameOf = (key: string) => string;

const plain: NameOf = (key) => key;

/** A 1-based place in the UI language: 1 → "1st", 2 → "2nd", 11 → "11th", 23 → "23rd"; "第 2" in Chinese. */
export function placeText(place: number, t: Translate): string {
  return t('jobs.wait.place', { count: place, ordinal: true });
}

/** "2nd in its account's line (of 5), 7th in the cluster (of 30)". */
export function positionText(position: WaitPosition, t: Translate): string {
  return t('jobs.wait.position', {
    inAccount: placeText(position.inAccount, t),
    accountWaiting: position.accountWaiting,
    inCluster: placeText(position.inCluster, t),
    clusterWaiting: position.clusterWaiting,
  });
}

/**
 * A duration with its two largest units, to the nearest minute: 7140 → "1 h 59 min", 93600 → "1 d 2 h",
 * 7200 → "2 h"; under half a minute "less than a minute".
 */
export function durationText(seconds: number, t: Translate): string {
  const minutes = Number.isFinite(seconds) ? Math.round(seconds / 60) : 0;
  if (minutes <= 0) return t('jobs.wait.duration.underMinute');
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  const parts: string[] = [];
  if (days > 0) {
    parts.push(t('jobs.wait.duration.day', { count: days }));
    if (hours > 0) parts.push(t('jobs.wait.duration.hour', { count: hours }));
  } else if (hours > 0) {
    parts.push(t('jobs.wait.duration.hour', { count: hours }));
    if (mins > 0) parts.push(t('jobs.wait.duration.minute', { count: mins }));
  } else {
    parts.push(t('jobs.wait.duration.minute', { count: mins }));
  }
  return parts.join(' ');
}

/** How far an instant lies ahead: "in 1 h 59 min"; "any moment now" once it has come; '' when unparsable. */
export function relativeText(iso: string, now: number, t: Translate): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return '';
  const seconds = (at - now) / 1000;
  if (seconds <= 0) return t('jobs.wait.anyMoment');
  return t('jobs.wait.in', { duration: durationText(seconds, t) });
}

/** A job ahead in line: its name (else its id), or "a job of another account" when the viewer may not see it. */
export function aheadLabel(job: AheadJob, t: Translate): string {
  if (job.id === null) return t('jobs.wait.hiddenJob');
  return job.name ?? job.id;
}

/**
 * The jobs an estimate waits for, named where the viewer may see them; from the bare ids of `waitsFor` when
 * the answer carries no `jobs` (the id then stands for the name).
 */
export function waitsForJobs(estimate: WaitEstimate): WaitsForJob[] {
  if (estimate.jobs && estimate.jobs.length === estimate.waitsFor.length) return estimate.jobs;
  return estimate.waitsFor.map((id) => ({ id, name: null }));
}

function changeValue(s: Suggestion, key: string): string | number | boolean | undefined {
  return s.change[key];
}

/** The accelerators per pod a FewerAccelerators suggestion offers (null when the change does not say). */
function fewerCount(s: Suggestion): number | null {
  const n = Number(changeValue(s, 'resources.accelerators'));
  return Number.isFinite(n) && n > 0 ? n : null;
}

/** The grant a RequestGrant suggestion asks for: resource key and quantity ("2", "16Gi"). */
export function grantOf(s: Suggestion): { resource: string; amount: string } | null {
  const resource = changeValue(s, 'resource');
  const amount = changeValue(s, 'amount');
  if (resource === undefined || amount === undefined || String(resource) === '') return null;
  return { resource: String(resource), amount: String(amount) };
}

/** Whether following the suggestion resubmits the job with a change (rather than asking for a grant). */
export function isResubmitSuggestion(s: Suggestion): boolean {
  return s.code === 'FewerAccelerators' || s.code === 'OtherModel' || s.code === 'RunAsBackfill';
}

/** The label of the button that follows a suggestion: "Submit with 1 accelerator instead", "Use … instead", "Request a grant". */
export function suggestionLabel(s: Suggestion, t: Translate, nameOf: NameOf = plain): string {
  switch (s.code) {
    case 'FewerAccelerators': {
      const count = fewerCount(s);
      return count === null ? t('jobs.wait.follow.FewerAcceleratorsAny') : t('jobs.wait.follow.FewerAccelerators', { count });
    }
    case 'OtherModel': {
      const model = changeValue(s, 'resources.acceleratorModel');
      return t('jobs.wait.follow.OtherModel', { model: model === undefined ? '' : nameOf(String(model)) });
    }
    case 'RequestGrant':
      return t('jobs.wait.follow.RequestGrant');
    case 'RunAsBackfill':
      return t('jobs.wait.follow.RunAsBackfill');
  }
}

/** What a suggestion says, in the UI language; the server's sentence when its figures are missing. */
export function suggestionText(s: Suggestion, t: Translate, nameOf: NameOf = plain): string {
  const n = s.numbers;
  switch (s.code) {
    case 'FewerAccelerators': {
      const count = fewerCount(s);
      if (count !== null && typeof n.requested === 'number') {
        return t('jobs.wait.suggestion.FewerAccelerators', { count, requested: n.requested });
      }
      break;
    }
    case 'OtherModel': {
      const model = changeValue(s, 'resources.acceleratorModel');
      if (model !== undefined && typeof n.accelerators === 'number') {
        return t('jobs.wait.suggestion.OtherModel', { count: n.accelerators, model: nameOf(String(model)) });
      }
      break;
    }
    case 'RunAsBackfill':
      return t('jobs.wait.suggestion.RunAsBackfill');
    case 'RequestGrant': {
      const grant = grantOf(s);
      // The amount as the grant form takes it ("2", "16Gi").
      if (grant !== null) return t('jobs.wait.suggestion.RequestGrant', { amount: grant.amount, resource: nameOf(grant.resource) });
      break;
    }
  }
  return s.message;
}
