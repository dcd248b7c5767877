import type { InputHTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import type { Parsed } from '../../lib/units';
import { understoodText, unitProblemText } from './quantityText';
import { inputClass, inputInvalid } from './ui';

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'>;

/**
 * A text input for an amount in a stated unit. Beside it: what it understood ("= 64 GiB") while the text parses,
 * what is wrong with it while it does not, and `error` (a submit check or the server's message for this field)
 * in red, which wins over both.
 */
export function QuantityInput({
  value,
  onChange,
  parse,
  unitKey,
  error,
  testId,
  ...rest
}: InputProps & {
  value: string;
  onChange: (text: string) => void;
  parse: (text: string) => Parsed;
  /** i18n key of the unit to append to the understood number (cores, devices); none when the text has it. */
  unitKey?: string | undefined;
  error?: string | undefined;
  testId: string;
}) {
  const { t } = useTranslation();
  const parsed = value.trim() === '' ? null : parse(value);
  const note = error ?? (parsed === null ? undefined : parsed.ok ? understoodText(t, parsed, unitKey) : unitProblemText(t, parsed.problem));
  const bad = error !== undefined || (parsed !== null && !parsed.ok);
  return (
    <span className="block">
      <input
        {...rest}
        data-testid={testId}
        aria-invalid={error !== undefined}
        className={`${inputClass} ${error ? inputInvalid : ''}`}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      {note !== undefined && (
        <span
          data-testid={`${testId}-note`}
          data-ok={bad ? 'false' : 'true'}
          role={error ? 'alert' : undefined}
          className={`mt-1 block text-xs ${error ? 'text-rose-700' : bad ? 'text-amber-700' : 'text-slate-500'}`}
        >
          {note}
        </span>
      )}
    </span>
  );
}
