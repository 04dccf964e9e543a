/**
 * Which windows of its output a padded convolution's product is split into: a window's output
 * pixels share the taps that stay inside the image, so its product skips the others, whose reads
 * would all be padding zeros. A "valid" convolution's input gradient (a full convolution) spends
 * half its multiply-adds on such zeros when computed whole (bench/NOTES.md item 23).
 */
import type { Conv2dGeometry } from '../../backend';
import type { KernelOverrides } from './variants';

/**
 * Output positions [start, start + count) along one axis of a convolution whose windows all read
 * the image (not its padding) at taps lo..hi, and only there if the span is exact.
 */
export interface TapSpan {
  readonly start: number;
  readonly count: number;
  readonly lo: number;
  readonly hi: number;
}

/**
 * The output positions along one axis in at most `most` spans (see TapSpan), or null when some
 * window lies wholly in the padding. Positions whose windows keep the same taps form a span; while
 * there are too many, the two neighbours whose merging adds the least work (positions x taps)
 * merge, keeping the union of their taps.
 */
export function tapSpans(
  outSize: number,
  inSize: number,
  stride: number,
  pad: number,
  dilation: number,
  kernel: number,
  most: number,
): TapSpan[] | null {
  const spans: TapSpan[] = [];
  for (let o = 0; o < outSize; o++) {
    const first = o * stride - pad;
    const lo = Math.max(0, Math.ceil(-first / dilation));
    const hi = Math.min(kernel - 1, Math.floor((inSize - 1 - first) / dilation));
    if (lo > hi) return null;
    const last = spans.at(-1);
    if (last && last.lo === lo && last.hi === hi)
      spans[spans.length - 1] = { ...last, count: last.count + 1 };
    else spans.push({ start: o, count: 1, lo, hi });
  }
  const merged = (a: TapSpan, b: TapSpan): TapSpan => ({
    start: a.start,
    count: a.count + b.count,
    lo: Math.min(a.lo, b.lo),
    hi: Math.max(a.hi, b.hi),
  });
  while (spans.length > most) {
    let best = 0;
    let added = Infinity;
    for (let i = 0; i + 1 < spans.length; i++) {
      const extra =
        spanWork(merged(spans[i], spans[i + 1])) - spanWork(spans[i]) - spanWork(spans[i + 1]);
      if (extra < added) [best, added] = [i, extra];
    }
    spans.splice(best, 2, merged(spans[best], spans[best + 1]));
  }
  return spans;
}

/** Positions times taps: a span's share of a product's multiply-adds along its axis. */
const spanWork = (span: TapSpan): number => span.count * (span.hi - span.lo + 1);

/** Most spans per axis: up to 25 products, each still large enough to fill a device. */
const MOST_SPANS = 5;

/**
 * Multiply-adds with padding zeros a split must save to pay for its extra dispatches (a couple
 * of dozen, each a fraction of a millisecond on a CPU emulation).
 */
const MIN_SAVED_MACS = 2 ** 23;

/** A rectangle of the output (rows x cols of its pixels) and the taps its windows read. */
export interface OutputWindow {
  readonly rows: TapSpan;
  readonly cols: TapSpan;
}

/** The whole output, every tap: the one window of an unsplit product. */
export function wholeWindow(g: Conv2dGeometry): OutputWindow {
  return {
    rows: { start: 0, count: g.outHeight, lo: 0, hi: g.kernelHeight - 1 },
    cols: { start: 0, count: g.outWidth, lo: 0, hi: g.kernelWidth - 1 },
  };
}

/**
 * The windows a padded convolution's product is split into, so that none multiplies the padding's
 * zeros over a whole span of taps (a full convolution, such as a "valid" convolution's input
 * gradient, spends half its multiply-adds there); one window of everything when not worth it.
 */
export function outputWindows(
  overrides: KernelOverrides,
  g: Conv2dGeometry,
  outChannels: number,
): OutputWindow[] {
  const whole = [wholeWindow(g)];
  const choice = overrides.convWindows;
  if ((g.padH === 0 && g.padW === 0) || choice === 'whole') return whole;
  const rows = tapSpans(
    g.outHeight,
    g.inHeight,
    g.strideH,
    g.padH,
    g.dilationH,
    g.kernelHeight,
    MOST_SPANS,
  );
  const cols = tapSpans(
    g.outWidth,
    g.inWidth,
    g.strideW,
    g.padW,
    g.dilationW,
    g.kernelWidth,
    MOST_SPANS,
  );
  if (!rows || !cols) return whole;
  const sum = (spans: TapSpan[]) => spans.reduce((t, s) => t + spanWork(s), 0);
  const perTap = g.batch * g.inChannels * outChannels;
  const saved =
    perTap * (spanWork(whole[0].rows) * spanWork(whole[0].cols) - sum(rows) * sum(cols));
  if (choice !== 'split' && saved < MIN_SAVED_MACS) return whole;
  return rows.flatMap((r) => cols.map((c) => ({ rows: r, cols: c })));
}
