/** Wire types of the Crater REST API (v1): Accounting (docs/accounting.md): money is decimal text and integer micro-units side by side. */

/** A price per unit-hour of one resource from `effectiveFrom` on. */
export interface Price {
  /** cpu, memory or an accelerator model key. */
  resource: string;
  /** core-hour, GiB-hour or device-hour. */
  unit: string;
  pricePerHour: string;
  microsPerHour: number;
  effectiveFrom: string;
  /** Who set it. */
  by: string | null;
}

/** The price book: the prices in force now (one per resource) and every version. */
export interface PriceBook {
  currency: string;
  current: Price[];
  history: Price[];
}

/** What a platform admin sends to set a price; `effectiveFrom` left out means from now. */
export interface NewPrice {
  resource: string;
  pricePerHour: string;
  effectiveFrom?: string;
}

export type BudgetPeriod = 'month' | 'week' | 'custom';
export type BudgetPolicy = 'hard' | 'soft' | 'stop';
export type BudgetRenewal = 'reset' | 'carry' | 'debt';

/** A budget's settings and its current period. */
export interface BudgetInfo {
  amount: string;
  amountMicros: number;
  period: BudgetPeriod;
  /** A custom period's length in days; null for a month or a week. */
  periodDays: number | null;
  policy: BudgetPolicy;
  renewal: BudgetRenewal;
  periodStart: string;
  periodEnd: string;
}

/** What the last 24 hours cost, and when the balance runs out at that rate (null: it does not, or no budget). */
export interface Burn {
  perDay: string;
  perDayMicros: number;
  runsOutAt: string | null;
}

/** What the account's running jobs hold of one resource now, and what that costs per hour. */
export interface Holding {
  resource: string;
  /** Milli-units: millicores, milli-bytes of memory, milli-devices. */
  milli: number;
  pricePerHour: string;
  costPerHourMicros: number;
}

/** An account's money: budget (null when none), balance (negative: spent beyond what was issued), burn rate. */
export interface BudgetView {
  account: string;
  currency: string;
  budget: BudgetInfo | null;
  balance: string;
  balanceMicros: number;
  spent: string;
  spentMicros: number;
  /** Share of the budget spent, 0–1000; null without a budget. */
  usedPercent: number | null;
  burn: Burn;
  holding: Holding[];
}

export interface BudgetUpdate {
  amount: string;
  period: BudgetPeriod;
  /** Only with the period `custom`: 1–366 days. */
  days?: number;
  policy: BudgetPolicy;
  renewal: BudgetRenewal;
}

/** One member's allotment this period: amount, left and share used are null when the member has none. */
export interface Allotment {
  user: string;
  amount: string | null;
  amountMicros: number | null;
  spent: string;
  spentMicros: number;
  left: string | null;
  leftMicros: number | null;
  usedPercent: number | null;
}

/** An account's allotments in its budget's period (only the caller's own for a member); no budget: none. */
export interface AllotmentList {
  account: string;
  currency: string;
  budget: BudgetInfo | null;
  allotted: string;
  allottedMicros: number;
  items: Allotment[];
}

export interface TopUp {
  amount: string;
  note: string;
}

export type LedgerKind = 'issue' | 'expire' | 'charge' | 'refund' | 'adjust';

/** One entry of an account's book, newest first. */
export interface LedgerEntry {
  id: number;
  kind: LedgerKind;
  amount: string;
  amountMicros: number;
  balanceAfter: string;
  balanceAfterMicros: number;
  /** The job's public id, for charges and refunds. */
  job: string | null;
  user: string | null;
  windowStart: string | null;
  windowEnd: string | null;
  note: string | null;
  actor: string | null;
  at: string;
}

export type UsageGrouping = 'resource' | 'user' | 'day' | 'month' | 'account';

/** One group's holding of one resource: `held` in unit-hours (device-, core- or GiB-hours). */
export interface UsageRow {
  /** The group: '' by resource, a username, a day (YYYY-MM-DD in the platform's zone), a month or an account. */
  key: string;
  resource: string;
  unit: string;
  held: number;
  cost: string;
  costMicros: number;
  /** Accelerators only (null for CPU and memory): device-hours with utilisation samples. */
  measured: number | null;
  /** Device-hours weighted by utilisation: 2 GPUs at 50 % for an hour are 1. */
  used: number | null;
  /** Held but without samples: neither idle nor busy. */
  unknown: number | null;
  /** used ÷ measured, 0–1; null when nothing was measured. */
  efficiency: number | null;
  /** What the measured idle part cost. */
  idleCost: string | null;
  idleCostMicros: number | null;
}

/** Every accelerator row of a report together. */
export interface AcceleratorUse {
  held: number;
  measured: number;
  used: number;
  efficiency: number | null;
  idleCost: string;
  idleCostMicros: number;
}

export interface UsageReport {
  account: string | null;
  from: string;
  to: string;
  by: UsageGrouping;
  currency: string;
  rows: UsageRow[];
  total: string;
  totalMicros: number;
  accelerators: AcceleratorUse;
  /** How long the jobs admitted in the span waited, per group (key "" when grouped by resource). */
  waits: UsageWait[];
}

/** The jobs of a group admitted in a report's span, and their wait from submission to admission. */
export interface UsageWait {
  key: string;
  jobs: number;
  meanSeconds: number;
  p90Seconds: number;
}

/** One month's statement (GET /accounting/accounts/{slug}/statements): balances and movements in the currency. */
export interface StatementSummary {
  /** YYYY-MM, in the platform's time zone. */
  period: string;
  from: string;
  to: string;
  currency: string;
  opening: string;
  issued: string;
  charged: string;
  adjusted: string;
  expired: string;
  closing: string;
  openingMicros: number;
  closingMicros: number;
  closedAt: string;
}
