/**
 * A month's daily series as bars (uPlot, canvas): the succeeded amount per day. Loaded lazily by
 * the Overview, so uPlot (~50 KB minified) is not in the console's first load. The canvas is
 * `role="img"` with a summary; the same figures are in the table beside it for screen readers.
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import { formatPaise } from '../../format.js';

export interface Day {
  date: string;
  count: number;
  amount_paise: number;
}

const compact = new Intl.NumberFormat('en-IN', { notation: 'compact', maximumFractionDigits: 1 });

export default function DailyChart({ days, label, color }: { days: Day[]; label: string; color: string }) {
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const x = days.map((d) => Number(d.date.slice(8, 10)));
    const y = days.map((d) => d.amount_paise / 100);
    const size = () => ({ width: Math.max(Math.min(el.clientWidth, 900), 280), height: 220 });
    const plot = new uPlot(
      {
        ...size(),
        legend: { show: false },
        cursor: { show: false },
        scales: { x: { time: false, range: [0.5, Math.max(x.length, 1) + 0.5] }, y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
        axes: [
          { stroke: '#545d68', grid: { show: false }, values: (_u, ticks) => ticks.map((t) => (Number.isInteger(t) ? String(t) : '')) },
          { stroke: '#545d68', size: 64, values: (_u, ticks) => ticks.map((t) => `₹${compact.format(t)}`) },
        ],
        series: [{}, { label, stroke: color, fill: color, width: 0, points: { show: false }, paths: uPlot.paths.bars?.({ size: [0.7, 40] }) }],
      },
      [x, y],
      el,
    );
    const onResize = () => plot.setSize(size());
    window.addEventListener('resize', onResize);
    return () => {
      window.removeEventListener('resize', onResize);
      plot.destroy();
    };
  }, [days, label, color]);

  const total = days.reduce((s, d) => s + d.amount_paise, 0);
  const best = days.reduce<Day | null>((b, d) => (b === null || d.amount_paise > b.amount_paise ? d : b), null);
  const summary = `${label}: ${formatPaise(total)} over ${days.length} days${best && best.amount_paise > 0 ? `, highest ${formatPaise(best.amount_paise)} on ${best.date}` : ''}.`;
  return <div ref={box} className="chart" role="img" aria-label={summary} />;
}
