import { escapeHtml } from '../../runtime/html.js';
import type { Calibration } from './calibration.js';

/** One panel of the chart: a label's calibration, drawn in its colour. */
export interface ChartSeries {
  readonly name: string;
  readonly colour: string;
  readonly calibration: Calibration;
}

export interface ChartOptions {
  readonly title: string;
  /** Bins with fewer forecasts are left out: their share is noise. */
  readonly minCount: number;
}

const WIDTH = 900;
const HEADER = 48;
const CELL = 300;
const COLUMNS = 3;
/** The plot square inside a cell: offsets from the cell's corner and side. */
const LEFT = 60;
const TOP = 44;
const SIZE = 210;
const TICKS = [0, 0.2, 0.4, 0.6, 0.8, 1];
const TEXT = '#1d2230';
const MUTED = '#5b6275';
const GRID = '#e3e6ee';

/** Coordinates to a tenth of a pixel: short, and the same text on every run. */
const px = (value: number): string => String(Math.round(value * 10) / 10);

function panel(series: ChartSeries, x: number, y: number, minCount: number): string {
  const { name, colour, calibration } = series;
  const left = x + LEFT;
  const top = y + TOP;
  const at = (p: number, observed: number) => [left + p * SIZE, top + (1 - observed) * SIZE] as const;
  const parts: string[] = [
    `<g aria-label="${escapeHtml(name)}">`,
    `<rect x="${x + 18}" y="${y + 14}" width="14" height="14" rx="3" fill="${colour}"/>`,
    `<text x="${x + 40}" y="${y + 26}" font-size="16" font-weight="600" fill="${TEXT}">${escapeHtml(name)}</text>`,
    `<text x="${x + CELL - 22}" y="${y + 26}" font-size="13" fill="${MUTED}" text-anchor="end">ECE ${calibration.ece.toFixed(3)}</text>`,
  ];
  for (const tick of TICKS) {
    const [tx, ty] = at(tick, tick);
    parts.push(
      `<line x1="${px(tx)}" y1="${top}" x2="${px(tx)}" y2="${top + SIZE}" stroke="${GRID}"/>`,
      `<line x1="${left}" y1="${px(ty)}" x2="${left + SIZE}" y2="${px(ty)}" stroke="${GRID}"/>`,
      `<text x="${px(tx)}" y="${top + SIZE + 16}" font-size="11" fill="${MUTED}" text-anchor="middle">${tick}</text>`,
      `<text x="${left - 6}" y="${px(ty + 4)}" font-size="11" fill="${MUTED}" text-anchor="end">${tick}</text>`,
    );
  }
  parts.push(
    `<rect x="${left}" y="${top}" width="${SIZE}" height="${SIZE}" fill="none" stroke="${MUTED}"/>`,
    `<line x1="${left}" y1="${top + SIZE}" x2="${left + SIZE}" y2="${top}" stroke="${MUTED}" stroke-dasharray="4 4"/>`,
    `<text x="${left + SIZE / 2}" y="${top + SIZE + 34}" font-size="12" fill="${TEXT}" text-anchor="middle">predicted probability</text>`,
    `<text transform="translate(${x + 20} ${top + SIZE / 2}) rotate(-90)" font-size="12" fill="${TEXT}" text-anchor="middle">observed frequency</text>`,
  );
  const shown = calibration.bins.filter((bin) => bin.count >= minCount);
  const points = shown.map((bin) => at(bin.predicted, bin.observed));
  if (points.length > 1)
    parts.push(
      `<polyline points="${points.map(([px_, py]) => `${px(px_)},${px(py)}`).join(' ')}" fill="none" stroke="${colour}" stroke-width="2"/>`,
    );
  shown.forEach((bin, k) => {
    const [cx, cy] = points[k]!;
    const r = 3 + 8 * Math.sqrt(bin.count / calibration.count);
    parts.push(
      `<circle cx="${px(cx)}" cy="${px(cy)}" r="${px(r)}" fill="${colour}" stroke="${TEXT}" stroke-opacity="0.6">` +
        `<title>${escapeHtml(name)}: ${bin.count} comments predicted ${bin.from.toFixed(1)}–${bin.to.toFixed(1)} (mean ${bin.predicted.toFixed(3)}), observed ${bin.observed.toFixed(3)}</title></circle>`,
    );
  });
  parts.push('</g>');
  return parts.join('\n');
}

function notes(x: number, y: number, minCount: number): string {
  const lines = [
    'How to read it',
    'Each dot: the comments whose predicted',
    'probability of the emotion falls in one',
    'tenth (0–0.1, 0.1–0.2, …, 0.9–1).',
    'Across: their mean predicted probability.',
    'Up: the share whose raters gave it.',
    'On the dashed diagonal the model is',
    'calibrated; below it, it overestimates.',
    'Dot area: the comments in the tenth;',
    `tenths of fewer than ${minCount} are left out.`,
    'ECE: the mean gap to the diagonal,',
    'weighted by comments.',
  ];
  return lines
    .map(
      (line, k) =>
        `<text x="${x + 18}" y="${y + 26 + k * 21}" font-size="${k === 0 ? 16 : 13}"${k === 0 ? ' font-weight="600"' : ''} fill="${k === 0 ? TEXT : MUTED}">${escapeHtml(line)}</text>`,
    )
    .join('\n');
}

/**
 * A reliability diagram per label, three to a row, and a panel saying how to read them: an SVG
 * document. Pure and deterministic: the same series give the same text, byte for byte.
 */
export function calibrationChart(series: readonly ChartSeries[], { title, minCount }: ChartOptions): string {
  const cells = series.length + 1;
  const height = HEADER + Math.ceil(cells / COLUMNS) * CELL;
  const cellAt = (k: number) => [(k % COLUMNS) * CELL, HEADER + Math.floor(k / COLUMNS) * CELL] as const;
  const body = series.map((one, k) => panel(one, ...cellAt(k), minCount));
  body.push(notes(...cellAt(series.length), minCount));
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-labelledby="chart-title" font-family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif">`,
    `<title id="chart-title">${escapeHtml(title)}</title>`,
    `<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`,
    `<text x="18" y="32" font-size="18" font-weight="600" fill="${TEXT}">${escapeHtml(title)}</text>`,
    ...body,
    '</svg>',
    '',
  ].join('\n');
}
