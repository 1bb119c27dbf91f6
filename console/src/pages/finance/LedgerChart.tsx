/**
 * Collected against settled per day (uPlot, canvas): two bar series side by side. Loaded lazily by
 * the Balances page, so uPlot is not in the console's first load. The canvas is `role="img"` with a
 * summary; the same figures are in the table under it (BalancesPage) for screen readers.
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import { formatPaise } from '../../format.js';
import type { Answer } from '../../wire.js';

export type LedgerDay = Answer<'consoleLedgerBalances'>['daily'][number];

export const COLLECTED_COLOR = '#0b5cad';
export const SETTLED_COLOR = '#1a7f37';

const compact = new Intl.NumberFormat('en-IN', { notation: 'compact', maximumFractionDigits: 1 });

/**
 * The y-axis in rupees: a round step (1, 2 or 5 × a power of ten) giving at most four intervals,
 * and a top that is a whole number of steps at or above the tallest bar. The top is itself a tick,
 * so the highest label is never below the tallest bar (uPlot's own ticks stop below the top of
 * the range, which left the tallest bar above the last label).
 */
export function yAxis(maxRupees: number): { top: number; ticks: number[] } {
  if (!(maxRupees > 0)) return { top: 1, ticks: [0, 0.5, 1] };
  const rough = maxRupees / 4;
  const p = 10 ** Math.floor(Math.log10(rough));
  const step = ([1, 2, 5, 10].map((m) => m * p).find((s) => s >= rough) ?? 10 * p);
  const n = Math.max(1, Math.ceil(maxRupees / step - 1e-9));
  return { top: n * step, ticks: Array.from({ length: n + 1 }, (_x, i) => Number((i * step).toPrecision(12))) };
}

export default function LedgerChart({ days, label }: { days: LedgerDay[]; label: string }) {
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const x = days.map((_d, i) => i + 1);
    const y = yAxis(Math.max(0, ...days.map((d) => Math.max(d.collected_paise, d.settled_paise) / 100)));
    const size = () => ({ width: Math.max(Math.min(el.clientWidth, 900), 280), height: 240 });
    const bars = (align: -1 | 1) => uPlot.paths.bars?.({ size: [0.4, 20], align });
    const plot = new uPlot(
      {
        ...size(),
        legend: { show: false },
        cursor: { show: false },
        scales: { x: { time: false, range: [0.5, Math.max(x.length, 1) + 0.5] }, y: { range: () => [0, y.top] } },
        axes: [
          // Day of the month under every few bars (the table has each date).
          { stroke: '#545d68', grid: { show: false }, values: (_u, ticks) => ticks.map((t) => (Number.isInteger(t) && days[t - 1] ? String(Number(days[t - 1]?.date.slice(8, 10))) : '')) },
          { stroke: '#545d68', size: 64, splits: () => y.ticks, values: (_u, ticks) => ticks.map((t) => `₹${compact.format(t)}`) },
        ],
        series: [
          {},
          { label: 'Collected', stroke: COLLECTED_COLOR, fill: COLLECTED_COLOR, width: 0, points: { show: false }, paths: bars(-1) },
          { label: 'Settled', stroke: SETTLED_COLOR, fill: SETTLED_COLOR, width: 0, points: { show: false }, paths: bars(1) },
        ],
      },
      [x, days.map((d) => d.collected_paise / 100), days.map((d) => d.settled_paise / 100)],
      el,
    );
    const onResize = () => plot.setSize(size());
    window.addEventListener('resize', onResize);
    return () => {
      window.removeEventListener('resize', onResize);
      plot.destroy();
    };
  }, [days]);

  const collected = days.reduce((s, d) => s + d.collected_paise, 0);
  const settled = days.reduce((s, d) => s + d.settled_paise, 0);
  const first = days[0]?.date ?? '';
  const last = days[days.length - 1]?.date ?? '';
  const summary = `${label}: collected against settled per day, ${first} to ${last}: collected ${formatPaise(collected)}, settled ${formatPaise(settled)}.`;
  const top = yAxis(Math.max(0, ...days.map((d) => Math.max(d.collected_paise, d.settled_paise) / 100))).top;
  return <div ref={box} className="chart" role="img" aria-label={summary} data-testid="ledger-chart" data-y-top={top} />;
}
