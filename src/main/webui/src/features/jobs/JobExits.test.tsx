import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import type { ContainerExit } from '../../api/types';
import { JobExits } from './JobExits';
import { stoppedBeforeStart } from './exitReason';

const never: ContainerExit = { pod: 'c-j1-main-0', container: 'main', exitCode: null, reason: null, message: null };

describe('JobExits', () => {
  it.each([
    ['Stopped', never, true],
    ['Failed', never, false],
    ['Stopped', { ...never, exitCode: 143 }, false],
    ['Stopped', { ...never, reason: 'Error' }, false],
  ] as const)('a %s job with %j was stopped before it started: %s', (state, exit, expected) => {
    expect(stoppedBeforeStart(exit, state)).toBe(expected);
  });

  it('says a stopped job whose container never ran was stopped first, not that its end is unknown', () => {
    render(<JobExits exits={[never]} memoryLimit="16Gi" state="Stopped" />);
    expect(screen.getByTestId('job-exit-explanation').textContent).toBe('Stopped before this container started: nothing ran.');
  });

  it('still says so for a failed job whose end is unknown', () => {
    render(<JobExits exits={[never]} memoryLimit="16Gi" state="Failed" />);
    expect(screen.getByTestId('job-exit-explanation').textContent).toBe('How it ended is not known.');
  });
});
