import { describe, expect, it } from 'vitest';
import { checkTensorboardForm, createTensorboardBody, emptySource, emptyTensorboardForm, panelTone } from './tensorboardForm';

describe('the TensorBoard panel form', () => {
  it('starts from a job when opened from its page', () => {
    expect(emptyTensorboardForm('j7k3f9')).toEqual({
      name: 'tb-j7k3f9',
      sources: [{ kind: 'job', space: 'user', path: '', job: 'j7k3f9', name: '' }],
    });
  });

  it.each([
    ['a good panel', { name: 'runs-june', sources: [{ ...emptySource(), path: '/runs/exp1' }] }, {}],
    ['a bad name', { name: 'Runs June', sources: [{ ...emptySource(), path: '/runs' }] }, { name: 'name' }],
    ['no sources', { name: 'runs', sources: [] }, { sources: 'noSources' }],
    [
      'nine sources',
      { name: 'runs', sources: Array.from({ length: 9 }, (_, i) => ({ ...emptySource(), path: `/r${i}` })) },
      { sources: 'tooMany' },
    ],
    ['a relative path', { name: 'runs', sources: [{ ...emptySource(), path: 'runs' }] }, { 'sources[0].path': 'path' }],
    [
      'a job id that is not one',
      { name: 'runs', sources: [{ ...emptySource(), kind: 'job' as const, job: 'J 7' }] },
      { 'sources[0].job': 'job' },
    ],
  ])('%s', (_, form, want) => {
    expect(checkTensorboardForm(form)).toEqual(want);
  });

  it('sends folders and jobs with their names, blanks left out', () => {
    expect(
      createTensorboardBody({
        name: ' runs ',
        sources: [
          { kind: 'folder', space: 'account:lab', path: ' /logs ', job: 'ignored', name: '' },
          { kind: 'job', space: 'user', path: 'ignored', job: 'j7k3f9', name: 'train' },
        ],
      }),
    ).toEqual({
      name: 'runs',
      sources: [
        { space: 'account:lab', path: '/logs' },
        { job: 'j7k3f9', name: 'train' },
      ],
    });
  });

  it('shows running panels as success and stopped ones as neutral', () => {
    expect(panelTone({ state: 'Running' })).toBe('success');
    expect(panelTone({ state: 'Stopped' })).toBe('neutral');
    expect(panelTone({ state: 'Queued' })).toBe('info');
  });
});
