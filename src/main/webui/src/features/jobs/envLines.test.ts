import { describe, expect, it } from 'vitest';
import { isReservedEnvName, parseEnvLines } from './envLines';

describe('parseEnvLines', () => {
  it('reads KEY=VALUE lines, keeping the value as typed', () => {
    expect(parseEnvLines('SIM_DURATION=3s\nOPTS=--a=1 --b=2\r\n EMPTY = \nQUOTED="x y"')).toEqual({
      env: { SIM_DURATION: '3s', OPTS: '--a=1 --b=2', EMPTY: ' ', QUOTED: '"x y"' },
      errors: [],
    });
  });

  it('skips blank lines and comments', () => {
    expect(parseEnvLines('\n# a comment\n   \nA=1\n')).toEqual({ env: { A: '1' }, errors: [] });
    expect(parseEnvLines('')).toEqual({ env: {}, errors: [] });
  });

  it('reports bad lines with their numbers', () => {
    const { env, errors } = parseEnvLines('GOOD=1\nno equals\n1BAD=x\n=x\nCRATER_USER=me\nHOME=/tmp\nGOOD=2\nmy-var=3');
    expect(env).toEqual({ GOOD: '1' });
    expect(errors).toEqual([
      { line: 2, problem: 'missingEquals', name: 'no equals' },
      { line: 3, problem: 'invalidName', name: '1BAD' },
      { line: 4, problem: 'invalidName', name: '' },
      { line: 5, problem: 'reserved', name: 'CRATER_USER' },
      { line: 6, problem: 'reserved', name: 'HOME' },
      { line: 7, problem: 'duplicate', name: 'GOOD' },
      { line: 8, problem: 'invalidName', name: 'my-var' },
    ]);
  });

  it('knows the reserved names', () => {
    for (const n of ['CRATER_X', 'PET_NNODES', 'VC_TASK_INDEX', 'HOME', 'JUPYTER_TOKEN']) expect(isReservedEnvName(n)).toBe(true);
    for (const n of ['HOMEDIR', 'PETS', 'MY_CRATER_X', 'PATH']) expect(isReservedEnvName(n)).toBe(false);
  });
});
