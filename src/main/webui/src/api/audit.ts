import { requestJson, withQuery } from './client';
import type { AuditEntry, AuditFilter, DeniedEntry, Page } from './types';

export function listAudit(
  filter: AuditFilter & { cursor?: string | null; limit?: number },
  signal?: AbortSignal,
): Promise<Page<AuditEntry>> {
  return requestJson<Page<AuditEntry>>(withQuery('/audit', { ...filter }), { signal });
}

export function listDenied(params: { cursor?: string | null }, signal?: AbortSignal): Promise<Page<DeniedEntry>> {
  return requestJson<Page<DeniedEntry>>(withQuery('/audit/denied', { ...params }), { signal });
}
