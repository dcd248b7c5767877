import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AcceleratorModel, TemplateParameter } from '../../api/types';
import { Field } from '../../components/common/Form';
import { inputClass, inputInvalid } from '../../components/common/ui';
import { acceleratorModelsQuery } from '../catalog/queries';
import { isTrue, type ParameterValues } from './parameterForm';
import { parameterText } from './templateText';

export interface TemplateParameterFormProps {
  parameters: readonly TemplateParameter[];
  values: ParameterValues;
  onChange: (name: string, value: string) => void;
  /** Parameter name → message to show under its input (already translated). */
  errors?: Record<string, string | undefined>;
  /** Parameter name → what its value was understood as ("= 64 GiB"), shown under the input instead of its help. */
  notes?: Record<string, string | undefined>;
  /** Parameter name → the unit its value is read in, added to its label ("GiB"). */
  units?: Record<string, string | undefined>;
  disabled?: boolean;
  /** Parameter name → what to show under its field (a picker that fills it). */
  below?: Record<string, ReactNode>;
}

interface InputProps {
  p: TemplateParameter;
  value: string;
  invalid: boolean;
  disabled: boolean;
  models: readonly AcceleratorModel[];
  onChange: (value: string) => void;
}

/** The control of one parameter, by type: selects for model and choice, a textarea for text, etc. */
function ParameterInput({ p, value, invalid, disabled, models, onChange }: InputProps) {
  const { t } = useTranslation();
  const cls = `${inputClass} ${invalid ? inputInvalid : ''}`;
  const common = {
    'data-testid': `param-${p.name}`,
    'aria-invalid': invalid || undefined,
    required: p.required,
    disabled,
  };
  switch (p.type) {
    case 'text':
      return <textarea {...common} rows={4} className={`${cls} font-mono`} value={value} onChange={(e) => onChange(e.target.value)} />;
    case 'integer':
      return (
        <input
          {...common}
          type="number"
          step={1}
          inputMode="numeric"
          className={cls}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      );
    case 'model': {
      // A value not (or not yet) in the catalogue stays selectable so that it is not silently changed.
      const known = value === '' || models.some((m) => m.key === value);
      return (
        <select {...common} className={cls} value={value} onChange={(e) => onChange(e.target.value)}>
          <option value="">{p.required ? t('templates.param.chooseModel') : t('templates.param.noModel')}</option>
          {!known && <option value={value}>{value}</option>}
          {models.map((m) => (
            <option key={m.key} value={m.key}>
              {m.displayName}
              {m.restricted ? ` · ${t('catalog.restricted')}` : ''}
            </option>
          ))}
        </select>
      );
    }
    case 'choice': {
      const options = p.options ?? [];
      const known = value === '' || options.includes(value);
      return (
        <select {...common} className={cls} value={value} onChange={(e) => onChange(e.target.value)}>
          {(value === '' || !p.required) && (
            <option value="">{p.required ? t('templates.param.choose') : t('templates.param.none')}</option>
          )}
          {!known && <option value={value}>{value}</option>}
          {options.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      );
    }
    case 'quantity':
    case 'duration':
    case 'string':
    default:
      return (
        <input
          {...common}
          className={`${cls} ${p.type === 'string' ? '' : 'font-mono'}`}
          placeholder={p.type === 'quantity' ? '16Gi' : p.type === 'duration' ? '12h' : undefined}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      );
  }
}

/** One input per template parameter, with its label, description as help and its error. */
export function TemplateParameterForm({
  parameters,
  values,
  onChange,
  errors = {},
  notes = {},
  units = {},
  disabled = false,
  below = {},
}: TemplateParameterFormProps) {
  const { t, i18n } = useTranslation();
  const needsModels = parameters.some((p) => p.type === 'model');
  const models = useQuery({ ...acceleratorModelsQuery(), enabled: needsModels });
  const catalogue = models.data?.items ?? [];

  if (parameters.length === 0) {
    return (
      <p data-testid="template-no-parameters" className="text-sm text-slate-500">
        {t('templates.param.noParameters')}
      </p>
    );
  }

  return (
    <div data-testid="template-parameters" className="grid gap-4 sm:grid-cols-2">
      {parameters.map((p) => {
        const error = errors[p.name];
        const text = parameterText(p, i18n.language);
        const unit = units[p.name];
        const label = unit ? `${text.label || p.name} (${unit})` : text.label || p.name;
        const hint = notes[p.name] ?? text.description ?? undefined;
        if (p.type === 'boolean') {
          return (
            <div key={p.name} className="sm:col-span-2">
              <label className="inline-flex items-center gap-2 text-sm font-medium text-slate-700">
                <input
                  type="checkbox"
                  data-testid={`param-${p.name}`}
                  aria-invalid={error ? true : undefined}
                  disabled={disabled}
                  className="h-4 w-4 rounded border-slate-300 text-indigo-600 focus:ring-indigo-500"
                  checked={isTrue(values[p.name])}
                  onChange={(e) => onChange(p.name, String(e.target.checked))}
                />
                {label}
              </label>
              {hint && !error && <span className="mt-1 block text-xs text-slate-500">{hint}</span>}
              {error && (
                <span role="alert" className="mt-1 block text-xs text-rose-700">
                  {error}
                </span>
              )}
            </div>
          );
        }
        const field = (
          <Field
            key={p.name}
            label={p.required ? label : t('templates.param.optional', { label })}
            hint={hint}
            error={error}
            className={p.type === 'text' ? 'sm:col-span-2' : undefined}
          >
            <ParameterInput
              p={p}
              value={values[p.name] ?? ''}
              invalid={Boolean(error)}
              disabled={disabled}
              models={catalogue}
              onChange={(v) => onChange(p.name, v)}
            />
          </Field>
        );
        if (below[p.name] === undefined) return field;
        return (
          <div key={p.name} className="sm:col-span-2">
            {field}
            {below[p.name]}
          </div>
        );
      })}
    </div>
  );
}
