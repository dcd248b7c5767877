import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ModelRow } from './AcceleratorModelsPage';
import { modelChanges } from './modelChanges';
import type { AcceleratorModel } from '../../api/types';

const a100: AcceleratorModel = {
  key: 'nvidia-a100-80gb',
  displayName: 'NVIDIA A100 80GB',
  vendor: 'NVIDIA',
  resource: 'nvidia.com/gpu',
  labelKey: 'nvidia.com/gpu.product',
  labelValue: 'NVIDIA-A100-SXM4-80GB',
  restricted: false,
};

function row(model: AcceleratorModel) {
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <table>
        <tbody>
          <ModelRow model={model} />
        </tbody>
      </table>
    </QueryClientProvider>,
  );
}

describe('the access checkbox of an accelerator model', () => {
  it('keeps its label when ticked and says what each state means', () => {
    row(a100);
    const box = screen.getByTestId('model-restricted') as HTMLInputElement;
    const label = box.closest('label')!;
    expect(box.checked).toBe(false);
    expect(label.textContent).toBe('Restricted');
    expect(screen.getByTestId('model-access-meaning').textContent).toBe('Every account may use it within its quota');
    fireEvent.click(box);
    expect(box.checked).toBe(true);
    expect(label.textContent).toBe('Restricted');
    expect(screen.getByTestId('model-access-meaning').textContent).toBe('Only accounts with an approved request may use it');
  });

  it('sends only what changed', () => {
    expect(modelChanges(a100, { displayName: a100.displayName, vendor: a100.vendor, restricted: true })).toEqual({
      restricted: true,
    });
    expect(modelChanges(a100, { displayName: a100.displayName, vendor: a100.vendor, restricted: false })).toEqual({});
  });
});
