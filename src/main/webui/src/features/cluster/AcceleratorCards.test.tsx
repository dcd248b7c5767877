import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { ACCELERATORS } from '../../test/fixtures';
import { AcceleratorCards } from './AcceleratorCards';

describe('AcceleratorCards', () => {
  it('renders one card per model with free and total counts', () => {
    render(<AcceleratorCards items={ACCELERATORS} />);
    const cards = screen.getAllByTestId('accelerator-card');
    expect(cards).toHaveLength(2);

    const a100 = cards.find((c) => c.dataset.model === 'nvidia-a100-80gb');
    expect(a100).toBeDefined();
    const card = within(a100!);
    expect(card.getByTestId('accelerator-free').textContent).toBe('24');
    expect(card.getByTestId('accelerator-total').textContent).toBe('32');
    expect(card.getByText('NVIDIA A100 80GB')).toBeTruthy();
    expect(card.getByText('NVIDIA')).toBeTruthy();
    expect(card.getByText('4 nodes')).toBeTruthy();
    expect(card.getByText('8 allocated (25%)')).toBeTruthy();
    const bar = card.getByRole('progressbar');
    expect(bar.getAttribute('aria-valuenow')).toBe('8');
    expect(bar.getAttribute('aria-valuemax')).toBe('32');
    expect(Number.parseFloat((bar.firstElementChild as HTMLElement).style.width)).toBe(25);

    const ascend = cards.find((c) => c.dataset.model === 'ascend-910b');
    expect(within(ascend!).getByTestId('accelerator-free').textContent).toBe('0');
    expect(within(ascend!).getByTestId('accelerator-total').textContent).toBe('16');
    expect(within(ascend!).getByText('2 nodes')).toBeTruthy();
  });

  it('renders nothing for an empty list', () => {
    render(<AcceleratorCards items={[]} />);
    expect(screen.queryAllByTestId('accelerator-card')).toHaveLength(0);
  });
});
