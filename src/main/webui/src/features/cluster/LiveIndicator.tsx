import { useTranslation } from 'react-i18next';
import { useNodeEvents } from './useNodeEvents';

const DOT: Record<string, string> = {
  live: 'bg-emerald-500',
  connecting: 'bg-slate-400',
  reconnecting: 'bg-amber-500 animate-pulse',
};

/** Subscribes to node events while mounted and shows the state of the stream. */
export function LiveIndicator() {
  const { t } = useTranslation();
  const status = useNodeEvents();
  return (
    <span
      data-testid="live-indicator"
      data-status={status}
      title={t('live.title')}
      className="inline-flex items-center gap-1.5 rounded-full bg-slate-100 px-2.5 py-1 text-xs font-medium text-slate-600"
    >
      <span aria-hidden="true" className={`h-2 w-2 rounded-full ${DOT[status] ?? DOT.connecting}`} />
      {t(`live.${status}`)}
    </span>
  );
}
