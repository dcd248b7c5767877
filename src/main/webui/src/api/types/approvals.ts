/** Wire types of the Crater REST API (v1): Approvals. */

export type ApprovalKind = 'quota-grant' | 'job-lock' | 'model-access';
export type ApprovalState = 'pending' | 'approved' | 'rejected' | 'cancelled' | 'expired';
export type ApprovalScope = 'mine' | 'review';

export interface PersonRef {
  username: string;
  displayName: string;
}

export interface Approval {
  id: string;
  kind: ApprovalKind;
  state: ApprovalState;
  account: string;
  requester: PersonRef;
  resource: string | null;
  amount: string | null;
  until: string | null;
  model: string | null;
  jobId: string | null;
  reason: string;
  reviewer: PersonRef | null;
  comment: string | null;
  createdAt: string;
  decidedAt: string | null;
}

export type ApprovalRequest =
  | { kind: 'quota-grant'; account: string; resource: string; amount: string; until: string; reason: string }
  | { kind: 'job-lock'; jobId: string; until: string; reason: string }
  | { kind: 'model-access'; account: string; model: string; reason: string };
