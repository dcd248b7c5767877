import { formatResourceMilli, parseQuantityMilli, resourceKind, type ResourceKind } from '../../lib/units';

/** One requested resource of a job, ready to show: cpu in cores, memory in GiB, accelerators as counts. */
export interface RequestEntry {
  resource: string;
  kind: ResourceKind;
  /** Amount in the display unit ("0.5", "16", "4"), or the raw quantity when it cannot be parsed. */
  amount: string;
}

const ORDER: Record<ResourceKind, number> = { accelerator: 0, cpu: 1, memory: 2 };

/**
 * The requests map of a job (resource → quantity string) as display entries: accelerators first (by name),
 * then cpu, then memory. Zero amounts are left out.
 */
export function requestEntries(requests: Record<string, string> | null | undefined): RequestEntry[] {
  const out: RequestEntry[] = [];
  for (const [resource, quantity] of Object.entries(requests ?? {})) {
    const milli = parseQuantityMilli(quantity);
    if (milli === 0) continue;
    const kind = resourceKind(resource);
    out.push({ resource, kind, amount: milli === null ? quantity : formatResourceMilli(resource, milli) });
  }
  return out.sort((a, b) => ORDER[a.kind] - ORDER[b.kind] || a.resource.localeCompare(b.resource));
}
