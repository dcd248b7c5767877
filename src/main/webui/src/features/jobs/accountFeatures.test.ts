import { describe, expect, it } from 'vitest';
import type { AccountFeatures } from '../../api/types';
import { featureOff } from './accountFeatures';

const features: AccountFeatures = {
  features: { pytorch: false },
  ingressBandwidth: null,
  egressBandwidth: null,
  effective: { features: { jupyter: true, pytorch: false, 'high-priority': true }, ingressBandwidth: null, egressBandwidth: null },
};

describe('featureOff', () => {
  it('is true only for what the account turned off', () => {
    expect(featureOff(features, 'pytorch')).toBe(true);
    expect(featureOff(features, 'jupyter')).toBe(false);
    expect(featureOff(features, 'high-priority')).toBe(false);
  });
  it('takes a feature it does not know, or features not loaded yet, as on', () => {
    expect(featureOff(features, 'image-build')).toBe(false);
    expect(featureOff(undefined, 'pytorch')).toBe(false);
  });
});
