import { requestJson, requestVoid, withQuery } from './client';
import type {
  AccountArchived,
  Account,
  AccountCreate,
  AccountSummary,
  AccountUpdate,
  ItemList,
  Limits,
  Member,
  MemberUpdate,
  Page,
  QuotaItem,
  TimeLimits,
  TimeLimitsUpdate,
  AccountFeatures,
  AccountFeaturesUpdate,
} from './types';

const enc = encodeURIComponent;

export interface AccountListParams {
  q?: string;
  limit?: number;
  cursor?: string | null;
}

export function listAccounts(params: AccountListParams, signal?: AbortSignal): Promise<Page<AccountSummary>> {
  return requestJson<Page<AccountSummary>>(withQuery('/accounts', { ...params }), { signal });
}

export function createAccount(body: AccountCreate): Promise<Account> {
  return requestJson<Account>('/accounts', { method: 'POST', body });
}

export function getAccount(slug: string, signal?: AbortSignal): Promise<Account> {
  return requestJson<Account>(`/accounts/${enc(slug)}`, { signal });
}

export function updateAccount(slug: string, body: AccountUpdate): Promise<Account> {
  return requestJson<Account>(`/accounts/${enc(slug)}`, { method: 'PATCH', body });
}

/** Archives a team account (platform admins): no job starts in it again; its unfinished jobs are stopped. */
export function archiveAccount(slug: string): Promise<AccountArchived> {
  return requestJson<AccountArchived>(`/accounts/${enc(slug)}/archive`, { method: 'POST' });
}

export function putQuota(slug: string, items: QuotaItem[]): Promise<Account> {
  return requestJson<Account>(`/accounts/${enc(slug)}/quota`, { method: 'PUT', body: { items } });
}

export function listMembers(slug: string, signal?: AbortSignal): Promise<ItemList<Member>> {
  return requestJson<ItemList<Member>>(`/accounts/${enc(slug)}/members`, { signal });
}

export function putMember(slug: string, username: string, body: MemberUpdate): Promise<Member> {
  return requestJson<Member>(`/accounts/${enc(slug)}/members/${enc(username)}`, { method: 'PUT', body });
}

export function removeMember(slug: string, username: string): Promise<void> {
  return requestVoid(`/accounts/${enc(slug)}/members/${enc(username)}`, { method: 'DELETE' });
}

export function getDefaultLimits(slug: string, signal?: AbortSignal): Promise<Limits> {
  return requestJson<Limits>(`/accounts/${enc(slug)}/limits`, { signal });
}

export function putDefaultLimits(slug: string, body: Limits): Promise<Limits> {
  return requestJson<Limits>(`/accounts/${enc(slug)}/limits`, { method: 'PUT', body });
}

export function getMemberLimits(slug: string, username: string, signal?: AbortSignal): Promise<Limits> {
  return requestJson<Limits>(`/accounts/${enc(slug)}/members/${enc(username)}/limits`, { signal });
}

export function putMemberLimits(slug: string, username: string, body: Limits): Promise<Limits> {
  return requestJson<Limits>(`/accounts/${enc(slug)}/members/${enc(username)}/limits`, { method: 'PUT', body });
}

export function getTimeLimits(slug: string, signal?: AbortSignal): Promise<TimeLimits> {
  return requestJson<TimeLimits>(`/accounts/${enc(slug)}/time-limits`, { signal });
}

export function putTimeLimits(slug: string, body: TimeLimitsUpdate): Promise<TimeLimits> {
  return requestJson<TimeLimits>(`/accounts/${enc(slug)}/time-limits`, { method: 'PUT', body });
}

export function getAccountFeatures(slug: string, signal?: AbortSignal): Promise<AccountFeatures> {
  return requestJson<AccountFeatures>(`/accounts/${enc(slug)}/features`, { signal });
}

export function putAccountFeatures(slug: string, body: AccountFeaturesUpdate): Promise<AccountFeatures> {
  return requestJson<AccountFeatures>(`/accounts/${enc(slug)}/features`, { method: 'PUT', body });
}
