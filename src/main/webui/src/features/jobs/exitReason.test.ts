import { describe, expect, it } from 'vitest';
import i18n from '../../i18n';
import type { ContainerExit } from '../../api/types';
import { exitExplanation, exitSucceeded, explainExit, memoryLimitText } from './exitReason';

const en = i18n.getFixedT('en');
const zh = i18n.getFixedT('zh-CN');

type Exit = Pick<ContainerExit, 'exitCode' | 'reason'>;

describe('exitExplanation', () => {
  const cases: [Exit, string | null, string][] = [
    [{ exitCode: 137, reason: 'OOMKilled' }, '16Gi', 'Ran out of memory (limit 16 GiB) and was killed.'],
    [{ exitCode: 137, reason: 'OOMKilled' }, null, 'Ran out of memory and was killed.'],
    [{ exitCode: 137, reason: 'OOMKilled' }, 'lots', 'Ran out of memory (limit lots) and was killed.'],
    [{ exitCode: 137, reason: 'Error' }, '16Gi', 'Killed (SIGKILL), most often for using more memory than its limit.'],
    [{ exitCode: 143, reason: 'Error' }, null, 'Terminated (SIGTERM): the job was stopped or reached its time limit.'],
    [{ exitCode: 143, reason: 'DeadlineExceeded' }, null, 'Hit its time limit and was stopped.'],
    [{ exitCode: null, reason: 'DeadlineExceeded' }, null, 'Hit its time limit and was stopped.'],
    [{ exitCode: 0, reason: 'Completed' }, null, 'Completed successfully.'],
    [{ exitCode: null, reason: 'Completed' }, null, 'Completed successfully.'],
    [{ exitCode: 1, reason: 'Error' }, null, 'The program ended with an error (exit code 1); see the end of the log.'],
    [{ exitCode: 2, reason: 'Error' }, null, 'The program ended with an error (exit code 2); see the end of the log.'],
    [{ exitCode: 126, reason: 'Error' }, null, 'The command could not be run (not executable or permission denied).'],
    [{ exitCode: 127, reason: 'Error' }, null, 'The command was not found in the image.'],
    [
      { exitCode: null, reason: 'ImagePullBackOff' },
      null,
      'The image could not be pulled: check its name and tag, and that the registry is reachable.',
    ],
    [
      { exitCode: null, reason: 'ErrImagePull' },
      null,
      'The image could not be pulled: check its name and tag, and that the registry is reachable.',
    ],
    [{ exitCode: null, reason: 'InvalidImageName' }, null, 'The image name is not valid.'],
    [{ exitCode: 128, reason: 'ContainerCannotRun' }, null, 'The container could not be started; see the message below.'],
    [{ exitCode: 3, reason: 'Error' }, null, 'Exited with code 3.'],
    [{ exitCode: 139, reason: null }, null, 'Exited with code 139.'],
    [{ exitCode: null, reason: 'Evicted' }, null, 'Ended: Evicted.'],
    [{ exitCode: null, reason: null }, null, 'How it ended is not known.'],
  ];

  it.each(cases)('%o (memory %s) → %s', (exit, memory, text) => {
    expect(explainExit(exit, en, memory)).toBe(text);
  });

  it('gives the key and the figures', () => {
    expect(exitExplanation({ exitCode: 137, reason: 'OOMKilled' }, '512Mi')).toEqual({ key: 'oomLimit', values: { limit: '0.5 GiB' } });
    expect(exitExplanation({ exitCode: 42, reason: 'Error' })).toEqual({ key: 'code', values: { code: 42 } });
  });

  it('has every explanation in both languages', () => {
    const keys = [
      'oom',
      'oomLimit',
      'deadline',
      'invalidImage',
      'imagePull',
      'cannotStart',
      'completed',
      'programError',
      'notExecutable',
      'notFound',
      'sigkill',
      'sigterm',
      'code',
      'reason',
      'unknown',
    ];
    for (const key of keys) {
      expect(i18n.exists(`jobs.exit.explain.${key}`, { lng: 'en' })).toBe(true);
      expect(i18n.exists(`jobs.exit.explain.${key}`, { lng: 'zh-CN' })).toBe(true);
    }
    expect(explainExit({ exitCode: 137, reason: 'OOMKilled' }, zh, '16Gi')).toBe('内存耗尽（上限 16 GiB），被系统终止。');
  });
});

describe('exit helpers', () => {
  it('formats the memory limit', () => {
    expect(memoryLimitText('32Gi')).toBe('32 GiB');
    expect(memoryLimitText(' ')).toBeNull();
    expect(memoryLimitText(undefined)).toBeNull();
  });

  it('knows a successful exit', () => {
    expect(exitSucceeded({ exitCode: 0, reason: 'Completed' })).toBe(true);
    expect(exitSucceeded({ exitCode: null, reason: 'Completed' })).toBe(true);
    expect(exitSucceeded({ exitCode: 1, reason: 'Error' })).toBe(false);
    expect(exitSucceeded({ exitCode: null, reason: null })).toBe(false);
  });
});
