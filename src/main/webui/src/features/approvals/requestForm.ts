import type { ApprovalKind, ApprovalRequest } from '../../api/types';
import { localInputToIso } from '../../lib/time';
import { QUOTA_LIMITS } from '../../lib/limits';
import { parseResourceAmount, type UnitProblem } from '../../lib/units';

export interface RequestFormValues {
  kind: ApprovalKind;
  account: string;
  resource: string;
  amount: string;
  /** datetime-local value */
  until: string;
  model: string;
  jobId: string;
  reason: string;
}

/**
 * Validates the request form and builds the POST body; errors map field → problem (an i18n key and its values).
 * A grant's amount is read in its resource's unit (memory in GiB: "64" is sent as "64Gi").
 */
export function buildApprovalRequest(
  v: RequestFormValues,
  now: number = Date.now(),
): { request: ApprovalRequest | null; errors: Record<string, UnitProblem> } {
  const errors: Record<string, UnitProblem> = {};
  const reason = v.reason.trim();
  if (reason === '') errors.reason = { key: 'request.reasonRequired' };
  const needsUntil = v.kind === 'quota-grant' || v.kind === 'job-lock';
  const until = needsUntil ? localInputToIso(v.until) : null;
  if (needsUntil) {
    if (until === null) errors.until = { key: 'request.untilRequired' };
    else if (Date.parse(until) <= now) errors.until = { key: 'request.untilPast' };
  }
  let amount = '';
  if (v.kind !== 'job-lock' && v.account.trim() === '') errors.account = { key: 'request.accountRequired' };
  if (v.kind === 'quota-grant') {
    if (v.resource === '') errors.resource = { key: 'request.resourceRequired' };
    else {
      const parsed = parseResourceAmount(v.resource, v.amount, QUOTA_LIMITS);
      if (!parsed.ok) errors.amount = parsed.problem;
      else if (parsed.value === 0) errors.amount = { key: 'request.amountInvalid' };
      else amount = parsed.api;
    }
  }
  if (v.kind === 'model-access' && v.model === '') errors.model = { key: 'request.modelRequired' };
  if (v.kind === 'job-lock' && v.jobId.trim() === '') errors.jobId = { key: 'request.jobIdRequired' };
  if (Object.keys(errors).length > 0) return { request: null, errors };

  let request: ApprovalRequest;
  switch (v.kind) {
    case 'quota-grant':
      request = {
        kind: 'quota-grant',
        account: v.account.trim(),
        resource: v.resource,
        amount,
        until: until as string,
        reason,
      };
      break;
    case 'job-lock':
      request = { kind: 'job-lock', jobId: v.jobId.trim(), until: until as string, reason };
      break;
    case 'model-access':
      request = { kind: 'model-access', account: v.account.trim(), model: v.model, reason };
      break;
  }
  return { request, errors };
}
