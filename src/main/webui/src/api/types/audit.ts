/** Wire types of the Crater REST API (v1): Audit (platform admin). */

export interface AuditEntry {
  id: string;
  at: string;
  actor: string;
  account: string | null;
  action: string;
  targetType: string;
  targetId: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  result: string;
  clientAddress: string;
}

export interface DeniedEntry {
  id: string;
  at: string;
  actor: string | null;
  method: string;
  path: string;
  code: string;
  clientAddress: string;
}

export interface AuditFilter {
  actor?: string;
  action?: string;
  account?: string;
  from?: string;
  to?: string;
}
