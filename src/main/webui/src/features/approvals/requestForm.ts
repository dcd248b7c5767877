import type { ApprovalKind, ApprovalRequest } from '../../api/types';
import { localInputToIso } from '../../lib/time';
import { isValidAmount } from '../../lib/units';

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

/** Validates the request form and builds the POST body; errors map field → i18n key. */
export function buildApprovalRequest(
  v: RequestFormValues,
  now: number = Date.now(),
): { request: ApprovalRequest | null; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const reason = v.reason.trim();
  if (reason === '') errors.reason = 'request.reasonRequired';
  const needsUntil = v.kind === 'quota-grant' || v.kind === 'job-lock';
  const until = needsUntil ? localInputToIso(v.until) : null;
  if (needsUntil) {
    if (until === null) errors.until = 'request.untilRequired';
    else if (Date.parse(until) <= now) errors.until = 'request.untilPast';
  }
  if (v.kind !== 'job-lock' && v.account.trim() === '') errors.account = 'request.accountRequired';
  if (v.kind === 'quota-grant') {
    if (v.resource === '') errors.resource = 'request.resourceRequired';
    else if (!isValidAmount(v.resource, v.amount) || v.amount.trim() === '0')
      errors.amount = 'request.amountInvalid';
  }
  if (v.kind === 'model-access' && v.model === '') errors.model = 'request.modelRequired';
  if (v.kind === 'job-lock' && v.jobId.trim() === '') errors.jobId = 'request.jobIdRequired';
  if (Object.keys(errors).length > 0) return { request: null, errors };

  let request: ApprovalRequest;
  switch (v.kind) {
    case 'quota-grant':
      request = {
        kind: 'quota-grant',
        account: v.account.trim(),
        resource: v.resource,
        amount: v.amount.trim(),
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
