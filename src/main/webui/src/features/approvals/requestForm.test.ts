import { describe, expect, it } from 'vitest';
import { buildApprovalRequest, type RequestFormValues } from './requestForm';

const NOW = new Date(2025, 0, 10, 12, 0).getTime();
const base: RequestFormValues = {
  kind: 'quota-grant',
  account: 'vision-lab',
  resource: 'nvidia-a100-80gb',
  amount: '4',
  until: '2025-01-11T12:00',
  model: '',
  jobId: '',
  reason: 'Paper deadline',
};

describe('buildApprovalRequest', () => {
  it('builds a quota grant with an ISO until', () => {
    const { request, errors } = buildApprovalRequest(base, NOW);
    expect(errors).toEqual({});
    expect(request).toEqual({
      kind: 'quota-grant',
      account: 'vision-lab',
      resource: 'nvidia-a100-80gb',
      amount: '4',
      until: new Date(2025, 0, 11, 12, 0).toISOString(),
      reason: 'Paper deadline',
    });
  });
  it('builds model access and job lock requests with only their fields', () => {
    expect(buildApprovalRequest({ ...base, kind: 'model-access', model: 'nvidia-h100-80gb' }, NOW).request).toEqual({
      kind: 'model-access',
      account: 'vision-lab',
      model: 'nvidia-h100-80gb',
      reason: 'Paper deadline',
    });
    expect(buildApprovalRequest({ ...base, kind: 'job-lock', jobId: ' job-42 ' }, NOW).request).toEqual({
      kind: 'job-lock',
      jobId: 'job-42',
      until: new Date(2025, 0, 11, 12, 0).toISOString(),
      reason: 'Paper deadline',
    });
  });
  it('reports missing and invalid fields', () => {
    const { request, errors } = buildApprovalRequest({ ...base, amount: '1.5', until: '2025-01-09T12:00', reason: ' ' }, NOW);
    expect(request).toBeNull();
    expect(errors).toEqual({
      amount: { key: 'units.wholeNumber' },
      until: { key: 'request.untilPast' },
      reason: { key: 'request.reasonRequired' },
    });
    expect(buildApprovalRequest({ ...base, kind: 'job-lock', until: '' }, NOW).errors).toEqual({
      until: { key: 'request.untilRequired' },
      jobId: { key: 'request.jobIdRequired' },
    });
  });
  it('reads a memory grant in GiB, sends it with its unit and refuses zero and too much', () => {
    const memory = { ...base, resource: 'memory', amount: '64' };
    expect(buildApprovalRequest(memory, NOW).request).toMatchObject({ resource: 'memory', amount: '64Gi' });
    expect(buildApprovalRequest({ ...memory, amount: '0' }, NOW).errors).toEqual({ amount: { key: 'request.amountInvalid' } });
    expect(buildApprovalRequest({ ...memory, amount: '99999Ti' }, NOW).errors).toEqual({
      amount: { key: 'units.tooLarge', values: { limit: '8192 TiB', unit: '' } },
    });
  });
});
