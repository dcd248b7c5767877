import { ratio } from '../../lib/units';

interface ResourceBarProps {
  used: number;
  total: number;
  /** Accessible name of the bar. */
  label: string;
  size?: 'sm' | 'md';
}

function barColor(share: number): string {
  if (share >= 0.9) return 'bg-rose-500';
  if (share >= 0.7) return 'bg-amber-500';
  return 'bg-indigo-500';
}

/** Horizontal bar showing how much of a resource is allocated. */
export function ResourceBar({ used, total, label, size = 'md' }: ResourceBarProps) {
  const share = ratio(used, total);
  const height = size === 'sm' ? 'h-1.5' : 'h-2.5';
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={total}
      aria-valuenow={used}
      className={`w-full overflow-hidden rounded-full bg-slate-200 ${height}`}
    >
      <div
        className={`${height} rounded-full transition-[width] duration-500 ${barColor(share)}`}
        style={{ width: `${(share * 100).toFixed(1)}%` }}
      />
    </div>
  );
}
