import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { btnDanger, btnSmall } from './ui';

interface ConfirmButtonProps {
  children: ReactNode;
  onConfirm: () => void;
  disabled?: boolean;
  testId?: string;
  small?: boolean;
}

/** A destructive action that needs a second click ("Confirm?") instead of a browser dialog. */
export function ConfirmButton({ children, onConfirm, disabled, testId, small = true }: ConfirmButtonProps) {
  const { t } = useTranslation();
  const [armed, setArmed] = useState(false);
  const base = small ? `${btnSmall} text-rose-700 ring-rose-300 hover:bg-rose-50` : btnDanger;
  // Its own classes: adding bg-rose-600 to `base` loses to base's hover:bg-rose-50 (white text on near-white).
  const armedClass = `inline-flex items-center justify-center font-medium text-white bg-rose-600 hover:bg-rose-500 disabled:cursor-not-allowed disabled:opacity-60 ${
    small ? 'rounded px-2 py-1 text-xs ring-1 ring-rose-600' : 'gap-1.5 rounded-md px-3 py-1.5 text-sm shadow-sm'
  }`;
  if (!armed) {
    return (
      <button type="button" data-testid={testId} disabled={disabled} className={base} onClick={() => setArmed(true)}>
        {children}
      </button>
    );
  }
  return (
    <span className="inline-flex gap-1">
      <button
        type="button"
        data-testid={testId ? `${testId}-confirm` : undefined}
        disabled={disabled}
        className={armedClass}
        onClick={() => {
          setArmed(false);
          onConfirm();
        }}
      >
        {t('common.confirm')}
      </button>
      <button type="button" className={btnSmall} onClick={() => setArmed(false)}>
        {t('common.cancel')}
      </button>
    </span>
  );
}
