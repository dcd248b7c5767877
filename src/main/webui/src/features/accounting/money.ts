import type { TFunction } from 'i18next';
import { formatSignedMoney, parseMoney, resourceKind, type Parsed } from '../../lib/units';

/** The largest amount the console's money fields take: one billion units (10^15 micro-units, exact in a JS number). */
export const MAX_MONEY_MICRO = 1e15;

/** Micro-units in the currency: "-2.5 points". */
export function moneyText(micros: number, currency: string): string {
  return `${formatSignedMoney(micros)} ${currency}`;
}

/** parseMoney, with the currency beside what it understood ("= 12.5 points"). */
export function parseMoneyIn(currency: string): (text: string) => Parsed {
  return (text) => {
    const parsed = parseMoney(text, MAX_MONEY_MICRO);
    return parsed.ok ? { ...parsed, shown: `${parsed.shown} ${currency}` } : parsed;
  };
}

/** The resource what file spaces hold is priced as, per GiB-hour (docs/accounting.md, "Storage"). */
export const STORAGE = 'storage';

/** The unit a resource is priced per, in the reader's language: core-hour, GiB-hour, device-hour. */
export function priceUnit(t: TFunction, resource: string): string {
  return t(`accounting.priceUnits.${resource === STORAGE ? STORAGE : resourceKind(resource)}`);
}

/** A price per unit-hour, given as the server's decimal text: "2.5 points per device-hour". */
export function priceText(t: TFunction, amount: string, currency: string, resource: string): string {
  return t('accounting.perUnit', { amount, currency, unit: priceUnit(t, resource) });
}

/** A resource's name: CPU, Memory or the accelerator model's display name. */
export function resourceName(t: TFunction, resource: string, modelName: (key: string) => string): string {
  if (resource === STORAGE) return t('accounting.resources.storage');
  const kind = resourceKind(resource);
  return kind === 'accelerator' ? modelName(resource) : t(`accounting.resources.${kind}`);
}
