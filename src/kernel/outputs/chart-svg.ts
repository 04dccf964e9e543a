/**
 * A static picture of chart data (`application/vnd.gpubook.chart+json`) as an SVG string: what a
 * saved notebook carries beside the chart's JSON as `image/svg+xml`, so Jupyter and GitHub show
 * the curves. Pure string building (no DOM, no React), so it runs wherever a notebook is saved;
 * the app itself keeps drawing the live chart from the JSON with Recharts. It follows that
 * drawing: one panel per metric (two a row), the same colours, dashed and thin detail lines,
 * markers up to 60 points, axes that take in every point (fixed ends widen when data lies
 * beyond them, as Recharts does). Every text is escaped, and characters XML forbids are dropped.
 */
import type { ChartData, ChartPanelData } from '../protocol';

// The same colours as the live chart (ChartPanels.tsx): blue then red first.
const COLORS = ['#1a73e8', '#d93025', '#188038', '#f29900', '#9334e6', '#12b5cb', '#e52592'];
const DETAIL_COLOR = '#9db8e8';
const MARKERS_UP_TO = 60;
const PANELS_PER_ROW = 2;

/** Where things sit, in pixels; exported for tests that check where points land. */
export const SVG_LAYOUT = {
  panelWidth: 420,
  panelHeight: 260,
  gap: 16,
  /** Height of the chart's title line, when it has one. */
  titleHeight: 24,
  /** Height of a panel's own title line (shown when a chart has several panels). */
  panelTitleHeight: 18,
  /** The plot area inside a panel (after its title line). */
  plotLeft: 52,
  plotRight: 404,
  plotTop: 8,
  /** From the panel's bottom: tick labels, the x label and the legend sit below the plot. */
  plotBottomMargin: 58,
} as const;

/** Text as XML character data or an attribute value: escaped, characters XML forbids dropped. */
export function escapeXml(text: string): string {
  return (
    text
      // XML 1.0 allows tab, newline, return, and U+0020 up; not lone surrogates, U+FFFE, U+FFFF.
      .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
  );
}

/** A coordinate with at most two decimals. */
function px(value: number): string {
  const rounded = Math.round(value * 100) / 100;
  return String(rounded === 0 ? 0 : rounded);
}

/** Tick labels as the live chart writes them. */
function formatTick(value: number): string {
  const abs = Math.abs(value);
  if (abs !== 0 && (abs < 1e-3 || abs >= 1e5)) return value.toExponential(1);
  return String(Number(value.toPrecision(4)));
}

/** A short label: long category or series names would run into their neighbours. */
function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function niceStep(span: number, count = 5): number {
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / power;
  return (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10) * power;
}

interface Axis {
  min: number;
  max: number;
  ticks: number[];
}

/** An axis over [lo, hi]; `nice` widens free ends to whole ticks (as Recharts' 'auto'). */
function axis(lo: number, hi: number, nice: { min: boolean; max: boolean }): Axis {
  if (!(hi > lo)) {
    const pad = lo === 0 ? 1 : Math.abs(lo) * 0.1;
    [lo, hi] = [lo - pad, hi + pad];
  }
  const step = niceStep(hi - lo);
  if (nice.min) lo = Math.floor(lo / step) * step;
  if (nice.max) hi = Math.ceil(hi / step) * step;
  const ticks: number[] = [];
  const first = Math.ceil(lo / step - 1e-9);
  for (let i = first; i * step <= hi + step * 1e-9 && ticks.length < 50; i++) {
    ticks.push(Number((i * step).toPrecision(12)));
  }
  return { min: lo, max: hi, ticks };
}

function finitePoints(points: unknown): [number, number][] {
  if (!Array.isArray(points)) return [];
  return points.filter(
    (p): p is [number, number] =>
      Array.isArray(p) && Number.isFinite(p[0]) && Number.isFinite(p[1]),
  );
}

function extent(values: number[]): [number, number] | null {
  if (values.length === 0) return null;
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return [lo, hi];
}

const finite = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value);

/** The domain of one axis: fixed ends where given, widened to take in every value. */
function domain(
  values: number[],
  fixedMin: unknown,
  fixedMax: unknown,
  fallback: [number, number],
) {
  const data = extent(values);
  const lo = finite(fixedMin)
    ? Math.min(fixedMin, data?.[0] ?? fixedMin)
    : (data?.[0] ?? fallback[0]);
  const hi = finite(fixedMax)
    ? Math.max(fixedMax, data?.[1] ?? fixedMax)
    : (data?.[1] ?? fallback[1]);
  return { lo, hi, fixedMin: finite(fixedMin), fixedMax: finite(fixedMax) };
}

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

function text(
  x: number,
  y: number,
  content: string,
  attrs: Record<string, string | number> = {},
): string {
  const extra = Object.entries(attrs)
    .map(([k, v]) => ` ${k}="${escapeXml(String(v))}"`)
    .join('');
  return `<text x="${px(x)}" y="${px(y)}"${extra}>${escapeXml(content)}</text>`;
}

function yAxisParts(box: Box, y: Axis, toY: (v: number) => number, label?: string): string[] {
  const parts: string[] = [];
  for (const t of y.ticks) {
    const at = toY(t);
    parts.push(
      `<line x1="${px(box.left)}" y1="${px(at)}" x2="${px(box.right)}" y2="${px(at)}" stroke="#e3e7ec" stroke-dasharray="3 3"/>`,
      text(box.left - 6, at + 4, formatTick(t), { 'text-anchor': 'end', fill: '#666' }),
    );
  }
  parts.push(
    `<line x1="${px(box.left)}" y1="${px(box.top)}" x2="${px(box.left)}" y2="${px(box.bottom)}" stroke="#666"/>`,
  );
  if (label) {
    const cy = (box.top + box.bottom) / 2;
    parts.push(
      text(12, cy, clip(label, 30), {
        'text-anchor': 'middle',
        transform: `rotate(-90 12 ${px(cy)})`,
        fill: '#444',
      }),
    );
  }
  return parts;
}

function legend(box: Box, entries: { name: string; color: string; dashed: boolean }[]): string {
  const y = box.bottom + 46;
  const width = Math.max(40, (box.right - box.left) / Math.max(1, entries.length));
  return entries
    .map((e, i) => {
      const x = box.left + i * width;
      const dash = e.dashed ? ' stroke-dasharray="6 4"' : '';
      return (
        `<line x1="${px(x)}" y1="${px(y - 4)}" x2="${px(x + 14)}" y2="${px(y - 4)}" stroke="${e.color}" stroke-width="2"${dash}/>` +
        text(x + 18, y, clip(e.name, Math.max(4, Math.floor((width - 22) / 6.5))), {
          fill: '#333',
        })
      );
    })
    .join('');
}

function linePanel(panel: ChartPanelData, box: Box): string[] {
  const series = panel.series.map((s) => ({ ...s, points: finitePoints(s.points) }));
  const xs = series.flatMap((s) => s.points.map((p) => p[0]));
  const ys = series.flatMap((s) => s.points.map((p) => p[1]));
  const xd = domain(xs, panel.xMin, panel.xMax, [0, 1]);
  const yd = domain(ys, panel.yMin, panel.yMax, [0, 1]);
  // x ends are the data's own (Recharts' dataMin/dataMax); free y ends round to whole ticks.
  const x = axis(xd.lo, xd.hi, { min: false, max: false });
  const y = axis(yd.lo, yd.hi, { min: !yd.fixedMin, max: !yd.fixedMax });
  const toX = (v: number) => box.left + ((v - x.min) / (x.max - x.min)) * (box.right - box.left);
  const toY = (v: number) => box.bottom - ((v - y.min) / (y.max - y.min)) * (box.bottom - box.top);
  const parts = yAxisParts(box, y, toY, panel.yLabel);
  for (const t of x.ticks) {
    const at = toX(t);
    parts.push(
      `<line x1="${px(at)}" y1="${px(box.top)}" x2="${px(at)}" y2="${px(box.bottom)}" stroke="#e3e7ec" stroke-dasharray="3 3"/>`,
      text(at, box.bottom + 14, formatTick(t), { 'text-anchor': 'middle', fill: '#666' }),
    );
  }
  parts.push(
    `<line x1="${px(box.left)}" y1="${px(box.bottom)}" x2="${px(box.right)}" y2="${px(box.bottom)}" stroke="#666"/>`,
  );
  if (panel.xLabel) {
    parts.push(
      text(box.right, box.bottom + 30, clip(panel.xLabel, 40), {
        'text-anchor': 'end',
        fill: '#444',
      }),
    );
  }
  let color = 0;
  const entries: { name: string; color: string; dashed: boolean }[] = [];
  for (const s of series) {
    const stroke = s.detail ? DETAIL_COLOR : COLORS[color++ % COLORS.length];
    entries.push({ name: s.name, color: stroke, dashed: !!s.dashed });
    const coords = s.points.map(([vx, vy]) => `${px(toX(vx))},${px(toY(vy))}`);
    const dash = s.dashed ? ' stroke-dasharray="6 4"' : '';
    parts.push(`<g data-series="${escapeXml(s.name)}">`);
    if (coords.length > 1) {
      parts.push(
        `<polyline points="${coords.join(' ')}" fill="none" stroke="${stroke}" stroke-width="${s.detail ? 1 : 2}"${dash}/>`,
      );
    }
    if (!s.detail && s.points.length <= MARKERS_UP_TO) {
      for (const [cx, cy] of s.points) {
        parts.push(
          `<circle cx="${px(toX(cx))}" cy="${px(toY(cy))}" r="3" fill="#fff" stroke="${stroke}" stroke-width="1.5"/>`,
        );
      }
    }
    parts.push('</g>');
  }
  parts.push(legend(box, entries));
  return parts;
}

function barPanel(panel: ChartPanelData, box: Box): string[] {
  const series = panel.series.map((s) => ({ ...s, points: finitePoints(s.points) }));
  const count = Math.max(
    0,
    ...series.flatMap((s) => s.points.map((p) => (Number.isInteger(p[0]) ? p[0] + 1 : 0))),
  );
  const ys = series.flatMap((s) => s.points.map((p) => p[1]));
  const yd = domain([0, ...ys], panel.yMin ?? 0, panel.yMax, [0, 1]);
  const y = axis(yd.lo, yd.hi, { min: !yd.fixedMin, max: !yd.fixedMax });
  const toY = (v: number) => box.bottom - ((v - y.min) / (y.max - y.min)) * (box.bottom - box.top);
  const parts = yAxisParts(box, y, toY, panel.yLabel);
  const band = (box.right - box.left) / Math.max(1, count);
  const barWidth = (band * 0.8) / Math.max(1, series.length);
  for (let i = 0; i < count; i++) {
    const label = panel.categories?.[i] ?? String(i);
    parts.push(
      text(
        box.left + band * (i + 0.5),
        box.bottom + 14,
        clip(String(label), Math.max(3, Math.floor(band / 6.5))),
        {
          'text-anchor': 'middle',
          fill: '#666',
        },
      ),
    );
  }
  const zero = toY(Math.max(y.min, Math.min(0, y.max)));
  parts.push(
    `<line x1="${px(box.left)}" y1="${px(zero)}" x2="${px(box.right)}" y2="${px(zero)}" stroke="#666"/>`,
  );
  const entries: { name: string; color: string; dashed: boolean }[] = [];
  series.forEach((s, k) => {
    const fill = COLORS[k % COLORS.length];
    entries.push({ name: s.name, color: fill, dashed: false });
    parts.push(`<g data-series="${escapeXml(s.name)}">`);
    for (const [i, v] of s.points) {
      if (!Number.isInteger(i) || i < 0) continue;
      const top = Math.min(zero, toY(v));
      const height = Math.abs(toY(v) - zero);
      const left = box.left + band * i + band * 0.1 + barWidth * k;
      parts.push(
        `<rect x="${px(left)}" y="${px(top)}" width="${px(barWidth)}" height="${px(height)}" fill="${fill}"/>`,
      );
    }
    parts.push('</g>');
  });
  parts.push(legend(box, entries));
  return parts;
}

/** The chart as a standalone SVG document (what `image/svg+xml` holds). */
export function chartSvg(data: ChartData): string {
  const L = SVG_LAYOUT;
  const panels = Array.isArray(data.panels) ? data.panels : [];
  const title = typeof data.title === 'string' && data.title ? data.title : '';
  const columns = Math.max(1, Math.min(PANELS_PER_ROW, panels.length));
  const rows = Math.max(1, Math.ceil(panels.length / PANELS_PER_ROW));
  const showPanelTitles = panels.length > 1;
  const panelHeight = L.panelHeight + (showPanelTitles ? L.panelTitleHeight : 0);
  const top = title ? L.titleHeight : 0;
  const width = columns * L.panelWidth + (columns - 1) * L.gap;
  const height = top + rows * panelHeight + (rows - 1) * L.gap;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`,
    `<title>${escapeXml(title || 'chart')}</title>`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
  ];
  if (title) parts.push(text(8, 16, title, { 'font-size': 13, 'font-weight': 600, fill: '#222' }));
  if (panels.length === 0)
    parts.push(
      text(width / 2, top + L.panelHeight / 2, '[empty chart]', {
        'text-anchor': 'middle',
        fill: '#666',
      }),
    );
  panels.forEach((panel, i) => {
    const ox = (i % PANELS_PER_ROW) * (L.panelWidth + L.gap);
    const oy = top + Math.floor(i / PANELS_PER_ROW) * (panelHeight + L.gap);
    const titleHeight = showPanelTitles ? L.panelTitleHeight : 0;
    parts.push(`<g transform="translate(${ox} ${oy})">`);
    if (showPanelTitles && typeof panel.title === 'string' && panel.title) {
      parts.push(text(L.plotLeft, 13, clip(panel.title, 60), { 'font-size': 12, fill: '#555' }));
    }
    const box: Box = {
      left: L.plotLeft,
      right: L.plotRight,
      top: titleHeight + L.plotTop,
      bottom: panelHeight - L.plotBottomMargin,
    };
    const series = Array.isArray(panel.series) ? panel.series : [];
    const safe = { ...panel, series };
    parts.push(...(panel.kind === 'bar' ? barPanel(safe, box) : linePanel(safe, box)));
    parts.push('</g>');
  });
  parts.push('</svg>');
  return parts.join('\n');
}
