import type { AccountFeatures, AccountFeaturesUpdate, FeatureName } from '../../api/types';

/** Every feature a platform admin can turn off, in the server's order. */
export const FEATURES: readonly FeatureName[] = ['jupyter', 'webide', 'custom', 'pytorch', 'inference', 'ssh', 'high-priority'];

export type BandwidthField = 'ingressBandwidth' | 'egressBandwidth';
export const BANDWIDTH_FIELDS: readonly BandwidthField[] = ['ingressBandwidth', 'egressBandwidth'];

/** The switches as shown (the value in force) and the caps as typed (empty: the platform's). */
export interface FeaturesForm {
  switches: Record<string, boolean>;
  ingressBandwidth: string;
  egressBandwidth: string;
}

export type FeaturesFormErrors = Partial<Record<BandwidthField, string>>;

/** Bits per second as the kubelet's bandwidth plugin takes them (1k to 1P), or none; the server checks again. */
const RATE = /^([0-9]+(?:\.[0-9]+)?)(k|M|G|T|P|Ki|Mi|Gi|Ti|Pi)?$/;
const MULTIPLIER: Record<string, number> = {
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
};

/** The i18n key of what is wrong with a cap, or undefined when it is one (empty and "none" are fine). */
export function bandwidthError(text: string): string | undefined {
  const v = text.trim();
  if (v === '' || v === 'none') return undefined;
  const m = RATE.exec(v);
  if (!m) return 'accounts.features.invalidRate';
  const rate = Number(m[1]) * (MULTIPLIER[m[2] ?? ''] ?? 1);
  if (rate < 1e3 || rate > 1e15) return 'accounts.features.rateRange';
  return undefined;
}

export function featuresToForm(f: AccountFeatures): FeaturesForm {
  return {
    switches: { ...f.effective.features },
    ingressBandwidth: f.ingressBandwidth ?? '',
    egressBandwidth: f.egressBandwidth ?? '',
  };
}

/**
 * The body to send: a feature the account had no value of and whose switch was not moved keeps the platform's
 * default; every other one is sent as set.
 */
export function formToFeatures(before: AccountFeatures, form: FeaturesForm): { body: AccountFeaturesUpdate; errors: FeaturesFormErrors } {
  const errors: FeaturesFormErrors = {};
  for (const field of BANDWIDTH_FIELDS) {
    const err = bandwidthError(form[field]);
    if (err) errors[field] = err;
  }
  const features: Record<string, boolean> = {};
  for (const name of Object.keys(form.switches)) {
    const own = before.features[name];
    const value = form.switches[name] ?? true;
    if (own !== undefined || value !== before.effective.features[name]) features[name] = value;
  }
  const body: AccountFeaturesUpdate = { features };
  if (form.ingressBandwidth.trim() !== '') body.ingressBandwidth = form.ingressBandwidth.trim();
  if (form.egressBandwidth.trim() !== '') body.egressBandwidth = form.egressBandwidth.trim();
  return { body, errors };
}
