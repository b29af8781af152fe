import { html, type Html } from '../api/surveys/html.js';

/** One line of the chart: its CSS class (its colour) and a value per label. */
export interface ChartSeries {
  key: string;
  name: string;
  values: number[];
}

export interface LineChart {
  /** What the chart shows, for screen readers (the table beneath has the figures). */
  title: string;
  /** The x axis: one label per value, oldest first. */
  labels: string[];
  series: ChartSeries[];
}

const COLOURS: Record<string, string> = { sent: '#3a5bd9', delivered: '#12b76a', clicked: '#f79009', answered: '#9e77ed' };
const W = 720;
const H = 260;
const BOX = { left: 48, right: 12, top: 12, bottom: 28 };

/** The smallest 1, 2 or 5 × 10^k at or above `max` (at least 1): the top of the y axis. */
export function niceMax(max: number): number {
  if (max <= 1) return 1;
  const step = 10 ** Math.floor(Math.log10(max));
  return [1, 2, 5, 10].map((m) => m * step).find((v) => v >= max)!;
}

/** Where each value sits in the plot: x spread evenly over the width, y from the bottom (0) to the top (`top`). */
export function seriesPoints(values: number[], top: number): Array<[number, number]> {
  const width = W - BOX.left - BOX.right;
  const height = H - BOX.top - BOX.bottom;
  const dx = values.length > 1 ? width / (values.length - 1) : 0;
  return values.map((v, i) => [round(BOX.left + (values.length > 1 ? i * dx : width / 2)), round(BOX.top + height - (v / top) * height)]);
}

const round = (n: number) => Math.round(n * 10) / 10;

/**
 * A line chart as inline SVG, drawn on the server: no script, no style attribute (colours are
 * presentation attributes, which the CSP allows). Every series on one y axis from 0.
 */
export function lineChart(chart: LineChart): Html {
  const top = niceMax(Math.max(0, ...chart.series.flatMap((s) => s.values)));
  const bottomY = H - BOX.bottom;
  const ticks = [0, top / 2, top];
  const n = chart.labels.length;
  const labelled = n <= 1 ? [0] : [...new Set([0, Math.floor((n - 1) / 2), n - 1])];
  const xs = seriesPoints(
    chart.labels.map(() => 0),
    1,
  ).map(([x]) => x);
  return html`<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${chart.title}" focusable="false">
<title>${chart.title}</title>
${ticks.map((t) => {
  const y = round(BOX.top + (H - BOX.top - BOX.bottom) * (1 - t / top));
  return html`<line x1="${BOX.left}" x2="${W - BOX.right}" y1="${y}" y2="${y}" stroke="#eaecf0"/><text x="${BOX.left - 6}" y="${y + 4}" text-anchor="end">${formatTick(t)}</text>`;
})}
<line x1="${BOX.left}" x2="${W - BOX.right}" y1="${bottomY}" y2="${bottomY}" stroke="#98a2b3"/>
${labelled.map((i) => html`<text x="${xs[i] ?? BOX.left}" y="${H - 8}" text-anchor="${i === 0 && n > 1 ? 'start' : i === n - 1 && n > 1 ? 'end' : 'middle'}">${chart.labels[i] ?? ''}</text>`)}
${chart.series.map(
  (s) =>
    html`<polyline class="line-${s.key}" data-series="${s.key}" fill="none" stroke="${COLOURS[s.key] ?? '#475467'}" stroke-width="2" stroke-linejoin="round" points="${seriesPoints(
      s.values,
      top,
    )
      .map(([x, y]) => `${x},${y}`)
      .join(' ')}"/>`,
)}
</svg>`;
}

const formatTick = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));
