import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import i18n from '../../i18n';
import { ApprovalStateBadge } from './ApprovalStateBadge';
import { approvalStateLabelKey, approvalStateTone } from './approvalState';

describe('approval state badge', () => {
  it('maps each state to a tone', () => {
    expect(approvalStateTone('pending')).toBe('warning');
    expect(approvalStateTone('approved')).toBe('success');
    expect(approvalStateTone('rejected')).toBe('danger');
    expect(approvalStateTone('cancelled')).toBe('neutral');
    expect(approvalStateTone('expired')).toBe('neutral');
    expect(approvalStateTone('something-new')).toBe('neutral');
  });

  it('has a label for every state in both languages', () => {
    for (const state of ['pending', 'approved', 'rejected', 'cancelled', 'expired', 'other']) {
      const key = approvalStateLabelKey(state);
      expect(i18n.exists(key, { lng: 'en' })).toBe(true);
      expect(i18n.exists(key, { lng: 'zh-CN' })).toBe(true);
    }
  });

  it('renders the translated label with the state as a stable value', () => {
    render(<ApprovalStateBadge state="approved" />);
    const badge = screen.getByTestId('status-badge');
    expect(badge.dataset.status).toBe('approved');
    expect(badge.textContent).toBe('Approved');
  });
});
