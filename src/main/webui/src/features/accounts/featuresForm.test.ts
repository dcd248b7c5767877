import { describe, expect, it } from 'vitest';
import type { AccountFeatures } from '../../api/types';
import { bandwidthError, featuresToForm, formToFeatures } from './featuresForm';

const allOn = { jupyter: true, webide: true, custom: true, pytorch: true, inference: true, ssh: true, 'high-priority': true };

function account(over: Partial<AccountFeatures> = {}): AccountFeatures {
  return {
    features: {},
    ingressBandwidth: null,
    egressBandwidth: null,
    effective: { features: { ...allOn }, ingressBandwidth: null, egressBandwidth: '1G' },
    ...over,
  };
}

describe('bandwidthError', () => {
  it.each(['', 'none', '100M', '1G', '1k', '1P', '500Mi', '1.5G', ' 10M '])('accepts %j', (v) => {
    expect(bandwidthError(v)).toBeUndefined();
  });
  it.each([
    ['100Mbps', 'accounts.features.invalidRate'],
    ['fast', 'accounts.features.invalidRate'],
    ['100m', 'accounts.features.invalidRate'],
    ['999', 'accounts.features.rateRange'],
    ['2P', 'accounts.features.rateRange'],
  ])('refuses %j', (v, key) => {
    expect(bandwidthError(v)).toBe(key);
  });
});

describe('formToFeatures', () => {
  it('sends nothing for switches left at the default and no caps when the fields are empty', () => {
    const before = account();
    expect(formToFeatures(before, featuresToForm(before))).toEqual({ body: { features: {} }, errors: {} });
  });

  it('sends the switches moved and those the account had set, and the caps typed', () => {
    const before = account({ features: { ssh: true } });
    const form = featuresToForm(before);
    form.switches.pytorch = false;
    form.ingressBandwidth = '100M';
    form.egressBandwidth = 'none';
    expect(formToFeatures(before, form)).toEqual({
      body: { features: { pytorch: false, ssh: true }, ingressBandwidth: '100M', egressBandwidth: 'none' },
      errors: {},
    });
  });

  it('names a bad cap by its field', () => {
    const form = featuresToForm(account());
    form.egressBandwidth = '10 Mbit';
    expect(formToFeatures(account(), form).errors).toEqual({ egressBandwidth: 'accounts.features.invalidRate' });
  });
});
