import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import type { QuotaLine } from '../../api/types';
import { QuotaTable } from './QuotaSection';

const GiB = 1024 ** 3;

function line(resource: string, displayName: string, amounts: Partial<QuotaLine>): QuotaLine {
  return {
    resource,
    displayName,
    guaranteed: '0',
    max: '0',
    used: '0',
    granted: '0',
    borrowed: '0',
    guaranteedMilli: 0,
    maxMilli: 0,
    usedMilli: 0,
    grantedMilli: 0,
    borrowedMilli: 0,
    ...amounts,
  };
}

describe('QuotaTable', () => {
  it('shows effective amounts per resource in its unit, with the granted part', () => {
    render(
      <QuotaTable
        lines={[
          line('nvidia-a100-80gb', 'NVIDIA A100 80GB', {
            guaranteedMilli: 8000,
            maxMilli: 16000,
            grantedMilli: 4000,
            usedMilli: 10000,
          }),
          line('memory', 'Memory', { guaranteedMilli: 64 * GiB * 1000, maxMilli: 128 * GiB * 1000 }),
          line('cpu', 'CPU', { guaranteedMilli: 500, maxMilli: 2000, usedMilli: 1500, borrowedMilli: 1000 }),
        ]}
      />,
    );
    const rows = screen.getAllByTestId('quota-row');
    expect(rows.map((r) => r.dataset.resource)).toEqual(['nvidia-a100-80gb', 'memory', 'cpu']);
    const a100 = within(rows[0]!);
    expect(a100.getByTestId('quota-effective-max').textContent).toBe('20');
    expect(a100.getByTestId('quota-effective-guaranteed').textContent).toBe('12');
    expect(a100.getByText('16 + 4 granted')).toBeTruthy();
    expect(a100.getByTestId('quota-granted-band').style.width).toBe('20%');
    expect(within(rows[1]!).getByTestId('quota-effective-max').textContent).toBe('128');
    const cpu = within(rows[2]!);
    expect(cpu.getByTestId('quota-effective-max').textContent).toBe('2');
    expect(cpu.getByTestId('quota-used').textContent).toBe('1.5');
    expect(cpu.getByTestId('quota-borrowed-band').style.width).toBe('50%');
  });
});
