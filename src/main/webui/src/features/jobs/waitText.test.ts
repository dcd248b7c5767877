import { describe, expect, it } from 'vitest';
import i18n from '../../i18n';
import type { AheadJob, Suggestion } from '../../api/types';
import {
  aheadLabel,
  durationText,
  grantOf,
  isResubmitSuggestion,
  placeText,
  positionText,
  relativeText,
  suggestionLabel,
  suggestionText,
} from './waitText';

const en = i18n.getFixedT('en');
const zh = i18n.getFixedT('zh-CN');
const names = (key: string) => (key === 'nvidia-h100-80gb' ? 'NVIDIA H100 80GB' : key);

const fewer: Suggestion = {
  code: 'FewerAccelerators',
  message: 'with 1 instead of 2 nvidia-a100-80gb per pod it would start now',
  change: { 'resources.accelerators': 1 },
  numbers: { requested: 2, startsNowWith: 1 },
};
const other: Suggestion = {
  code: 'OtherModel',
  message: '2 NVIDIA H100 80GB per pod are free now: with that model it would start now',
  change: { 'resources.acceleratorModel': 'nvidia-h100-80gb' },
  numbers: { accelerators: 2 },
};
const grant: Suggestion = {
  code: 'RequestGrant',
  message: 'a grant of 2 nvidia-a100-80gb to the account would lift its quota enough (an account admin approves it)',
  change: { resource: 'nvidia-a100-80gb', amount: '2' },
  numbers: { shortfall: 2000, used: 6000, effectiveMax: 8000 },
};

describe('placeText', () => {
  it('writes English ordinals', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111].map((n) => placeText(n, en))).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '23rd',
      '101st',
      '111th',
    ]);
  });

  it('writes Chinese ordinals', () => {
    expect(placeText(2, zh)).toBe('第 2');
    expect(placeText(11, zh)).toBe('第 11');
  });
});

describe('positionText', () => {
  const position = { inAccount: 2, accountWaiting: 5, inCluster: 7, clusterWaiting: 30, ahead: [] };

  it('gives both places and line lengths', () => {
    expect(positionText(position, en)).toBe("2nd in its account's line (of 5), 7th in the cluster (of 30)");
    expect(positionText({ ...position, inAccount: 1, inCluster: 3 }, en)).toBe(
      "1st in its account's line (of 5), 3rd in the cluster (of 30)",
    );
  });

  it('speaks Chinese too', () => {
    expect(positionText(position, zh)).toBe('在账户队列中排第 2 位（共 5 个），在集群中排第 7 位（共 30 个）');
  });
});

describe('durationText', () => {
  it('keeps the two largest units, to the minute', () => {
    expect(durationText(119 * 60, en)).toBe('1 h 59 min');
    expect(durationText(119 * 60 + 20, en)).toBe('1 h 59 min');
    expect(durationText(2 * 3600, en)).toBe('2 h');
    expect(durationText(26 * 3600 + 30 * 60, en)).toBe('1 d 2 h');
    expect(durationText(3 * 86400, en)).toBe('3 d');
    expect(durationText(5 * 60, en)).toBe('5 min');
    expect(durationText(20, en)).toBe('less than a minute');
    expect(durationText(Number.NaN, en)).toBe('less than a minute');
  });

  it('speaks Chinese too', () => {
    expect(durationText(119 * 60, zh)).toBe('1 小时 59 分钟');
    expect(durationText(20, zh)).toBe('不到 1 分钟');
  });
});

describe('relativeText', () => {
  const now = Date.parse('2025-03-01T10:00:00Z');

  it('says how far ahead the instant lies', () => {
    expect(relativeText('2025-03-01T11:59:00Z', now, en)).toBe('in 1 h 59 min');
    expect(relativeText('2025-03-03T12:00:00Z', now, en)).toBe('in 2 d 2 h');
    expect(relativeText('2025-03-01T11:59:00Z', now, zh)).toBe('1 小时 59 分钟后');
  });

  it('says "any moment now" once it has come, and nothing for unparsable times', () => {
    expect(relativeText('2025-03-01T10:00:00Z', now, en)).toBe('any moment now');
    expect(relativeText('2025-03-01T09:00:00Z', now, zh)).toBe('随时');
    expect(relativeText('soon', now, en)).toBe('');
  });
});

describe('aheadLabel', () => {
  const job: AheadJob = { id: 'j7', name: 'train-7', owner: 'bob', sameAccount: true, priority: 'normal', requests: {} };

  it('names visible jobs and hides the others', () => {
    expect(aheadLabel(job, en)).toBe('train-7');
    expect(aheadLabel({ ...job, name: null }, en)).toBe('j7');
    expect(aheadLabel({ ...job, id: null, name: null, owner: null, sameAccount: false }, en)).toBe('a job of another account');
    expect(aheadLabel({ ...job, id: null, name: null, owner: null, sameAccount: false }, zh)).toBe('其他账户的作业');
  });
});

describe('suggestions', () => {
  it('labels the buttons that follow them', () => {
    expect(suggestionLabel(fewer, en)).toBe('Submit with 1 accelerator instead');
    expect(suggestionLabel({ ...fewer, change: { 'resources.accelerators': 4 } }, en)).toBe('Submit with 4 accelerators instead');
    expect(suggestionLabel({ ...fewer, change: {} }, en)).toBe('Submit with fewer accelerators instead');
    expect(suggestionLabel(other, en, names)).toBe('Use NVIDIA H100 80GB instead');
    expect(suggestionLabel(other, en)).toBe('Use nvidia-h100-80gb instead');
    expect(suggestionLabel(grant, en)).toBe('Request a grant');
    expect(suggestionLabel(fewer, zh)).toBe('改用 1 个加速器重新提交');
    expect(suggestionLabel(other, zh, names)).toBe('改用 NVIDIA H100 80GB');
    expect(suggestionLabel(grant, zh)).toBe('申请临时授予');
  });

  it('offers running as backfill as a resubmission', () => {
    const backfill = { code: 'RunAsBackfill' as const, message: 'x', change: { backfill: true }, numbers: {} };
    expect(isResubmitSuggestion(backfill)).toBe(true);
    expect(suggestionLabel(backfill, en)).toBe('Run as backfill instead');
    expect(suggestionLabel(backfill, zh)).toBe('改为回填作业运行');
  });

  it('says what they would change', () => {
    expect(suggestionText(fewer, en)).toBe('With 1 instead of 2 accelerators per pod it would start now.');
    expect(suggestionText(other, en, names)).toBe('2 × NVIDIA H100 80GB per pod are free now: with that model it would start now.');
    expect(suggestionText(grant, en)).toBe(
      'A grant of 2 of nvidia-a100-80gb for the account would lift its quota enough (an account admin approves it).',
    );
    expect(suggestionText(fewer, zh)).toBe('每个 Pod 使用 1 个而不是 2 个加速器，它就能立即开始。');
  });

  it("falls back to the server's sentence when figures are missing", () => {
    expect(suggestionText({ ...fewer, numbers: {} }, en)).toBe(fewer.message);
    expect(suggestionText({ ...grant, change: {} }, en)).toBe(grant.message);
  });

  it('tells resubmits from grants', () => {
    expect(isResubmitSuggestion(fewer)).toBe(true);
    expect(isResubmitSuggestion(other)).toBe(true);
    expect(isResubmitSuggestion(grant)).toBe(false);
    expect(grantOf(grant)).toEqual({ resource: 'nvidia-a100-80gb', amount: '2' });
    expect(grantOf({ ...grant, change: { resource: 'memory', amount: 2048 } })).toEqual({ resource: 'memory', amount: '2048' });
    expect(grantOf(fewer)).toBeNull();
  });
});
