import { queryOptions } from '@tanstack/react-query';
import { getBudget, getPrices, getUsage, listAllotments, listLedger, listStatements, type UsageParams } from '../../api/accounting';

/** How many ledger entries the account page shows. */
export const LEDGER_LIMIT = 50;

/** Query-key factory for everything under /api/v1/accounting. */
export const accountingKeys = {
  all: ['accounting'] as const,
  prices: () => [...accountingKeys.all, 'prices'] as const,
  account: (slug: string) => [...accountingKeys.all, 'account', slug] as const,
  budget: (slug: string) => [...accountingKeys.account(slug), 'budget'] as const,
  allotments: (slug: string) => [...accountingKeys.account(slug), 'allotments'] as const,
  ledger: (slug: string) => [...accountingKeys.account(slug), 'ledger'] as const,
  statements: (slug: string) => [...accountingKeys.account(slug), 'statements'] as const,
  usage: (params: UsageParams) => [...accountingKeys.account(params.account), 'usage', params] as const,
};

export const pricesQuery = () =>
  queryOptions({ queryKey: accountingKeys.prices(), queryFn: ({ signal }) => getPrices(signal), staleTime: 60_000 });

export const budgetQuery = (slug: string) =>
  queryOptions({ queryKey: accountingKeys.budget(slug), queryFn: ({ signal }) => getBudget(slug, signal) });

export const ledgerQuery = (slug: string) =>
  queryOptions({ queryKey: accountingKeys.ledger(slug), queryFn: ({ signal }) => listLedger(slug, LEDGER_LIMIT, signal) });

export const usageQuery = (params: UsageParams) =>
  queryOptions({ queryKey: accountingKeys.usage(params), queryFn: ({ signal }) => getUsage(params, signal) });

export const statementsQuery = (slug: string) =>
  queryOptions({ queryKey: accountingKeys.statements(slug), queryFn: ({ signal }) => listStatements(slug, signal) });

export const allotmentsQuery = (slug: string) =>
  queryOptions({ queryKey: accountingKeys.allotments(slug), queryFn: ({ signal }) => listAllotments(slug, signal) });
