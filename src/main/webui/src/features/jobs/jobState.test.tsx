import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import i18n from '../../i18n';
import { JobStateBadge } from './JobStateBadge';
import { FINISHED_STATES, JOB_STATES, isFinished, jobStateLabelKey, jobStateTone } from './jobState';

describe('job state badge', () => {
  it('maps each state to a tone', () => {
    expect(jobStateTone('Queued')).toBe('warning');
    expect(jobStateTone('Admitted')).toBe('info');
    expect(jobStateTone('Pending')).toBe('info');
    expect(jobStateTone('Running')).toBe('info');
    expect(jobStateTone('Stopping')).toBe('info');
    expect(jobStateTone('Succeeded')).toBe('success');
    expect(jobStateTone('Failed')).toBe('danger');
    expect(jobStateTone('Rejected')).toBe('danger');
    expect(jobStateTone('Stopped')).toBe('neutral');
    expect(jobStateTone('Hibernating')).toBe('neutral');
  });

  it('knows which states are final', () => {
    expect(FINISHED_STATES.filter((s) => isFinished(s))).toEqual(['Succeeded', 'Failed', 'Stopped', 'Rejected']);
    expect(JOB_STATES.filter((s) => !isFinished(s))).toEqual(['Queued', 'Admitted', 'Pending', 'Running', 'Stopping']);
    expect(isFinished('Hibernating')).toBe(false);
  });

  it('has a label for every state in both languages', () => {
    for (const state of [...JOB_STATES, 'other']) {
      const key = jobStateLabelKey(state);
      expect(i18n.exists(key, { lng: 'en' })).toBe(true);
      expect(i18n.exists(key, { lng: 'zh-CN' })).toBe(true);
    }
    expect(jobStateLabelKey('other')).toBe('jobs.state.unknown');
  });

  it('renders the translated label with the state as a stable value', () => {
    render(<JobStateBadge state="Running" />);
    const badge = screen.getByTestId('status-badge');
    expect(badge.dataset.status).toBe('Running');
    expect(badge.textContent).toBe('Running');
  });
});
