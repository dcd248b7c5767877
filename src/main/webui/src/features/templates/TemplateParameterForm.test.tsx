import { useState, type ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import type { AcceleratorModel, ParameterType, TemplateParameter } from '../../api/types';
import { catalogKeys } from '../catalog/queries';
import { initialParameterValues, type ParameterValues } from './parameterForm';
import { TemplateParameterForm } from './TemplateParameterForm';

function param(name: string, type: ParameterType, extra: Partial<TemplateParameter> = {}): TemplateParameter {
  return { name, label: name, description: null, type, default: null, required: false, options: null, ...extra };
}

const MODELS: AcceleratorModel[] = [
  {
    key: 'nvidia-a100-80gb',
    displayName: 'NVIDIA A100 80GB',
    vendor: 'NVIDIA',
    resource: 'nvidia.com/gpu',
    labelKey: 'k',
    labelValue: 'v',
    restricted: false,
    memoryMiB: null,
    memoryResource: null,
    retired: false,
    retiredAt: null,
  },
  {
    key: 'ascend-910b',
    displayName: 'Huawei Ascend 910B',
    vendor: 'Huawei',
    resource: 'huawei.com/Ascend910',
    labelKey: 'k',
    labelValue: 'v',
    restricted: true,
    memoryMiB: null,
    memoryResource: null,
    retired: false,
    retiredAt: null,
  },
];

const PARAMETERS: TemplateParameter[] = [
  param('image', 'string', { label: 'Image', required: true, default: 'python:3.12', description: 'The container image.' }),
  param('script', 'text', { label: 'Script' }),
  param('workers', 'integer', { label: 'Workers', default: '1' }),
  param('memory', 'quantity', { label: 'Memory', default: '16Gi' }),
  param('timeLimit', 'duration', { label: 'Time limit' }),
  param('model', 'model', { label: 'Accelerator model' }),
  param('precision', 'choice', { label: 'Precision', options: ['fp16', 'bf16'], default: 'bf16', required: true }),
  param('debug', 'boolean', { label: 'Debug', description: 'More logging.' }),
  param('arguments', 'arguments', { label: 'Arguments' }),
];

function withClient(ui: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(catalogKeys.list(), { items: MODELS });
  return <QueryClientProvider client={client}>{ui}</QueryClientProvider>;
}

/** The form with its values in state, reporting each change. */
function Harness({
  parameters,
  errors,
  onChange,
}: {
  parameters: TemplateParameter[];
  errors?: Record<string, string>;
  onChange?: (name: string, value: string) => void;
}) {
  const [values, setValues] = useState<ParameterValues>(() => initialParameterValues(parameters));
  return (
    <>
      <TemplateParameterForm
        parameters={parameters}
        values={values}
        errors={errors}
        onChange={(name, value) => {
          onChange?.(name, value);
          setValues((v) => ({ ...v, [name]: value }));
        }}
      />
      <output data-testid="values">{JSON.stringify(values)}</output>
    </>
  );
}

const values = () => JSON.parse(screen.getByTestId('values').textContent ?? '{}') as ParameterValues;

describe('TemplateParameterForm', () => {
  it('renders one control per parameter, chosen by type', () => {
    render(withClient(<Harness parameters={PARAMETERS} />));
    const el = (name: string) => screen.getByTestId(`param-${name}`);
    expect(el('image').tagName).toBe('INPUT');
    expect((el('image') as HTMLInputElement).type).toBe('text');
    expect(el('script').tagName).toBe('TEXTAREA');
    expect((el('workers') as HTMLInputElement).type).toBe('number');
    expect((el('memory') as HTMLInputElement).type).toBe('text');
    expect((el('timeLimit') as HTMLInputElement).type).toBe('text');
    expect(el('model').tagName).toBe('SELECT');
    expect(el('precision').tagName).toBe('SELECT');
    expect((el('debug') as HTMLInputElement).type).toBe('checkbox');
    expect((el('arguments') as HTMLInputElement).type).toBe('text');
  });

  it('starts from the defaults', () => {
    render(withClient(<Harness parameters={PARAMETERS} />));
    expect((screen.getByTestId('param-image') as HTMLInputElement).value).toBe('python:3.12');
    expect((screen.getByTestId('param-workers') as HTMLInputElement).value).toBe('1');
    expect((screen.getByTestId('param-memory') as HTMLInputElement).value).toBe('16Gi');
    expect((screen.getByTestId('param-model') as HTMLSelectElement).value).toBe('');
    expect((screen.getByTestId('param-precision') as HTMLSelectElement).value).toBe('bf16');
    expect((screen.getByTestId('param-debug') as HTMLInputElement).checked).toBe(false);
  });

  it('labels each input, marks optional ones and shows the description as help', () => {
    render(withClient(<Harness parameters={PARAMETERS} />));
    expect(screen.getByLabelText(/^Image/)).toBe(screen.getByTestId('param-image'));
    expect(screen.getByLabelText('Workers (optional)')).toBe(screen.getByTestId('param-workers'));
    expect(screen.getByLabelText('Debug')).toBe(screen.getByTestId('param-debug'));
    expect(screen.getByText('The container image.')).toBeTruthy();
    expect(screen.getByText('More logging.')).toBeTruthy();
  });

  it('offers the catalogue for a model, with "none" when the model is optional', () => {
    render(withClient(<Harness parameters={PARAMETERS} />));
    const options = [...(screen.getByTestId('param-model') as HTMLSelectElement).options];
    expect(options.map((o) => o.value)).toEqual(['', 'nvidia-a100-80gb', 'ascend-910b']);
    expect(options.map((o) => o.textContent)).toEqual(['None (CPU only)', 'NVIDIA A100 80GB', 'Huawei Ascend 910B · Restricted']);
  });

  it('asks to choose a required model and keeps a value the catalogue does not list', () => {
    const parameters = [param('model', 'model', { required: true }), param('gpu', 'model', { default: 'nvidia-h100' })];
    render(withClient(<Harness parameters={parameters} />));
    const required = [...(screen.getByTestId('param-model') as HTMLSelectElement).options];
    expect(required[0]?.textContent).toBe('Choose a model…');
    const kept = screen.getByTestId('param-gpu') as HTMLSelectElement;
    expect(kept.value).toBe('nvidia-h100');
  });

  it('offers the choices, with an empty one only when the choice is optional or unset', () => {
    const parameters = [
      param('precision', 'choice', { options: ['fp16', 'bf16'], default: 'bf16', required: true }),
      param('optim', 'choice', { options: ['adam', 'sgd'] }),
      param('sched', 'choice', { options: ['cosine', 'linear'], required: true }),
    ];
    render(withClient(<Harness parameters={parameters} />));
    const opts = (name: string) => [...(screen.getByTestId(`param-${name}`) as HTMLSelectElement).options].map((o) => o.value);
    expect(opts('precision')).toEqual(['fp16', 'bf16']);
    expect(opts('optim')).toEqual(['', 'adam', 'sgd']);
    expect(opts('sched')).toEqual(['', 'cosine', 'linear']);
  });

  it('reports every change as a string, booleans as "true"/"false"', () => {
    const onChange = vi.fn();
    render(withClient(<Harness parameters={PARAMETERS} onChange={onChange} />));
    fireEvent.change(screen.getByTestId('param-image'), { target: { value: 'pytorch/pytorch:2.5.1' } });
    fireEvent.change(screen.getByTestId('param-script'), { target: { value: 'echo 1\necho 2' } });
    fireEvent.change(screen.getByTestId('param-workers'), { target: { value: '3' } });
    fireEvent.change(screen.getByTestId('param-model'), { target: { value: 'ascend-910b' } });
    fireEvent.change(screen.getByTestId('param-precision'), { target: { value: 'fp16' } });
    fireEvent.click(screen.getByTestId('param-debug'));
    expect(onChange).toHaveBeenCalledWith('debug', 'true');
    expect(values()).toEqual({
      image: 'pytorch/pytorch:2.5.1',
      script: 'echo 1\necho 2',
      workers: '3',
      memory: '16Gi',
      timeLimit: '',
      model: 'ascend-910b',
      precision: 'fp16',
      debug: 'true',
      arguments: '',
    });
    fireEvent.click(screen.getByTestId('param-debug'));
    expect(values().debug).toBe('false');
  });

  it('shows each field error in place of the help text and marks the input invalid', () => {
    render(withClient(<Harness parameters={PARAMETERS} errors={{ image: 'A value is required.', debug: 'must be true or false' }} />));
    const alerts = screen.getAllByRole('alert').map((a) => a.textContent);
    expect(alerts).toEqual(['A value is required.', 'must be true or false']);
    expect(screen.queryByText('The container image.')).toBeNull();
    expect(screen.queryByText('More logging.')).toBeNull();
    expect(screen.getByTestId('param-image').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByTestId('param-debug').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByTestId('param-memory').getAttribute('aria-invalid')).toBeNull();
  });

  it('says so when the template has no parameters', () => {
    render(withClient(<Harness parameters={[]} />));
    expect(screen.getByTestId('template-no-parameters').textContent).toBe('This template asks for no values.');
  });
});
