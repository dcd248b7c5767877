import { API_BASE, requestJson, requestVoid, withQuery } from './client';
import type {
  Allotment,
  AllotmentList,
  BudgetUpdate,
  BudgetView,
  ItemList,
  LedgerEntry,
  NewPrice,
  Price,
  PriceBook,
  StatementSummary,
  TopUp,
  UsageGrouping,
  UsageReport,
} from './types';

const enc = encodeURIComponent;

export function getPrices(signal?: AbortSignal): Promise<PriceBook> {
  return requestJson<PriceBook>('/accounting/prices', { signal });
}

/** Adds a price version (platform admins); the server refuses a time in the past. */
export function addPrice(body: NewPrice): Promise<Price> {
  return requestJson<Price>('/accounting/prices', { method: 'POST', body });
}

export function getBudget(slug: string, signal?: AbortSignal): Promise<BudgetView> {
  return requestJson<BudgetView>(`/accounting/accounts/${enc(slug)}/budget`, { signal });
}

/** Sets the account's budget (platform admins): its period starts at the amount. */
export function putBudget(slug: string, body: BudgetUpdate): Promise<BudgetView> {
  return requestJson<BudgetView>(`/accounting/accounts/${enc(slug)}/budget`, { method: 'PUT', body });
}

/**
 * Tops the budget up (platform admins). `idempotencyKey` names this one top-up: sending it again with the same key
 * (a retry after a lost answer) posts it once.
 */
export function topUpBudget(slug: string, body: TopUp, idempotencyKey: string): Promise<BudgetView> {
  return requestJson<BudgetView>(`/accounting/accounts/${enc(slug)}/budget/top-ups`, {
    method: 'POST',
    body,
    headers: { 'Idempotency-Key': idempotencyKey },
  });
}

/** Members' allotments this period (a member gets only their own). */
export function listAllotments(slug: string, signal?: AbortSignal): Promise<AllotmentList> {
  return requestJson<AllotmentList>(`/accounting/accounts/${enc(slug)}/budget/allotments`, { signal });
}

/** Sets what a member may spend per budget period (account admins and platform admins). */
export function putAllotment(slug: string, user: string, amount: string): Promise<Allotment> {
  return requestJson<Allotment>(`/accounting/accounts/${enc(slug)}/budget/allotments/${enc(user)}`, {
    method: 'PUT',
    body: { amount },
  });
}

/** Removes a member's allotment. */
export function removeAllotment(slug: string, user: string): Promise<void> {
  return requestVoid(`/accounting/accounts/${enc(slug)}/budget/allotments/${enc(user)}`, { method: 'DELETE' });
}

/** The newest ledger entries of the account's book (a member gets only their own jobs' entries). */
export function listLedger(slug: string, limit: number, signal?: AbortSignal): Promise<ItemList<LedgerEntry>> {
  return requestJson<ItemList<LedgerEntry>>(withQuery(`/accounting/accounts/${enc(slug)}/ledger`, { limit }), { signal });
}

export interface UsageParams {
  account: string;
  by: UsageGrouping;
  /** ISO instants or dates; left out, the report spans the current month up to now. */
  from?: string;
  to?: string;
}

function usagePath(params: UsageParams, format?: 'csv'): string {
  return withQuery('/accounting/usage', { account: params.account, from: params.from, to: params.to, by: params.by, format });
}

export function getUsage(params: UsageParams, signal?: AbortSignal): Promise<UsageReport> {
  return requestJson<UsageReport>(usagePath(params), { signal });
}

/** The address of the same report as a CSV file, for a download link. */
export function usageCsvUrl(params: UsageParams): string {
  return API_BASE + usagePath(params, 'csv');
}

/** The account's monthly statements, newest first (its admins and platform admins). */
export function listStatements(slug: string, signal?: AbortSignal): Promise<ItemList<StatementSummary>> {
  return requestJson<ItemList<StatementSummary>>(`/accounting/accounts/${enc(slug)}/statements`, { signal });
}

/** Where one month's statement downloads as CSV (its lines per member and resource). */
export function statementCsvUrl(slug: string, period: string): string {
  return `${API_BASE}/accounting/accounts/${enc(slug)}/statements/${enc(period)}?format=csv`;
}
