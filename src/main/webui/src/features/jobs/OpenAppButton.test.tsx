import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors';
import { openErrorMessage, opensApp } from './openApp';

const t = (k: string) => k;

describe('opensApp', () => {
  it('offers Open on the viewer’s own running notebook or VS Code only', () => {
    expect(opensApp({ kind: 'jupyter', state: 'Running', owner: 'ana' }, 'ana')).toBe(true);
    expect(opensApp({ kind: 'webide', state: 'Running', owner: 'ana' }, 'ana')).toBe(true);
    expect(opensApp({ kind: 'jupyter', state: 'Pending', owner: 'ana' }, 'ana')).toBe(false);
    expect(opensApp({ kind: 'jupyter', state: 'Running', owner: 'ben' }, 'ana')).toBe(false);
    expect(opensApp({ kind: 'custom', state: 'Running', owner: 'ana' }, 'ana')).toBe(false);
  });
});

describe('openErrorMessage', () => {
  it('names why the app could not be opened', () => {
    const problem = (code: string) => new ApiError({ status: 409, code, title: 'Conflict', detail: 'x' });
    expect(openErrorMessage(problem('AppNotReady'), t)).toBe('jobs.open.notReady');
    expect(openErrorMessage(problem('JobNotRunning'), t)).toBe('jobs.open.notRunning');
    expect(openErrorMessage(new Error('network'), t)).toBe('jobs.open.failed');
  });
});
