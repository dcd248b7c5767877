import { requestJson, withQuery } from './client';
import type { Approval, ApprovalRequest, ApprovalScope, ApprovalState, Page } from './types';

const enc = encodeURIComponent;

export interface ApprovalListParams {
  scope: ApprovalScope;
  state?: ApprovalState | '';
  cursor?: string | null;
}

export function listApprovals(params: ApprovalListParams, signal?: AbortSignal): Promise<Page<Approval>> {
  return requestJson<Page<Approval>>(withQuery('/approvals', { ...params }), { signal });
}

export function createApproval(body: ApprovalRequest): Promise<Approval> {
  return requestJson<Approval>('/approvals', { method: 'POST', body });
}

export function approveApproval(id: string, comment?: string): Promise<Approval> {
  return requestJson<Approval>(`/approvals/${enc(id)}/approve`, { method: 'POST', body: comment ? { comment } : {} });
}

export function rejectApproval(id: string, comment?: string): Promise<Approval> {
  return requestJson<Approval>(`/approvals/${enc(id)}/reject`, { method: 'POST', body: comment ? { comment } : {} });
}

export function cancelApproval(id: string): Promise<Approval> {
  return requestJson<Approval>(`/approvals/${enc(id)}/cancel`, { method: 'POST' });
}
