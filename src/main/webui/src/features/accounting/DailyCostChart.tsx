import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../lib/units';
import type { DayCost } from './dailyCost';
import { scaleTop } from './dailyCost';

const W = 640;
const H = 180;
const LEFT = 64;
const BOTTOM = 20;
const TOP = 8;

/**
 * The cost of each day of a month as bars, with the scale in the currency on the left. Screen readers get the
 * chart's summary and a table of the days that cost something.
 */
export function DailyCostChart({ days, currency }: { days: readonly DayCost[]; currency: string }) {
  const { t } = useTranslation();
  const max = Math.max(0, ...days.map((d) => d.costMicros));
  const top = scaleTop(max);
  const plotH = H - TOP - BOTTOM;
  const slot = (W - LEFT) / Math.max(1, days.length);
  const y = (micros: number) => TOP + plotH - (micros / top) * plotH;
  const ticks = [0, top / 2, top];
  const charged = days.filter((d) => d.costMicros > 0);
  const month = days[0]?.day.slice(0, 7) ?? '';
  const total = days.reduce((sum, d) => sum + d.costMicros, 0);
  return (
    <figure className="flex flex-col gap-1" data-testid="daily-cost">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={t('accounting.chart.label', {
          month,
          total: formatMoney(total),
          max: formatMoney(max),
          currency,
          days: charged.length,
        })}
        className="h-48 w-full rounded bg-slate-50 ring-1 ring-slate-200"
      >
        {ticks.map((v) => (
          <g key={v}>
            <line x1={LEFT} x2={W} y1={y(v)} y2={y(v)} stroke="#e2e8f0" strokeWidth={1} />
            <text x={LEFT - 6} y={y(v) + 4} textAnchor="end" fontSize={10} fill="#64748b" data-testid="daily-cost-tick">
              {`${formatMoney(v)} ${currency}`}
            </text>
          </g>
        ))}
        {days.map((d, i) =>
          d.costMicros > 0 ? (
            <rect
              key={d.day}
              data-testid="daily-cost-bar"
              data-day={d.day}
              data-cost={d.costMicros}
              x={LEFT + i * slot + slot * 0.15}
              width={slot * 0.7}
              y={y(d.costMicros)}
              height={TOP + plotH - y(d.costMicros)}
              fill="#4f46e5"
            >
              <title>{`${d.day}: ${formatMoney(d.costMicros)} ${currency}`}</title>
            </rect>
          ) : null,
        )}
        {days.map((d, i) =>
          d.date === 1 || d.date % 5 === 0 ? (
            <text key={d.day} x={LEFT + (i + 0.5) * slot} y={H - 6} textAnchor="middle" fontSize={10} fill="#64748b">
              {d.date}
            </text>
          ) : null,
        )}
      </svg>
      <figcaption className="text-xs text-slate-500">{t('accounting.chart.caption', { currency })}</figcaption>
      <table className="sr-only" data-testid="daily-cost-table">
        <caption>{t('accounting.chart.tableCaption', { month })}</caption>
        <thead>
          <tr>
            <th scope="col">{t('accounting.chart.day')}</th>
            <th scope="col">{t('accounting.chart.cost', { currency })}</th>
          </tr>
        </thead>
        <tbody>
          {charged.map((d) => (
            <tr key={d.day}>
              <td>{d.day}</td>
              <td>{formatMoney(d.costMicros)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
