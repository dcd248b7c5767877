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
        className={`${base} bg-rose-600 text-white hover:bg-rose-500`}
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
