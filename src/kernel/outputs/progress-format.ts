/**
 * The text of a progress bar, as tqdm and Keras's Progbar print it; shared by the kernel (the
 * text/plain fallback that .ipynb keeps) and the page (the line under the drawn bar).
 */
import type { ProgressData } from '../protocol';

/** Python's `'{:.Ng}'`: N significant digits, exponent form outside [1e-4, 10^N). */
export function formatG(value: number, digits = 3): string {
  if (!Number.isFinite(value)) return Number.isNaN(value) ? 'nan' : value > 0 ? 'inf' : '-inf';
  if (value === 0) return '0';
  const [mantissa, exponentText] = value.toExponential(digits - 1).split('e');
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= digits) {
    const m = stripZeros(mantissa);
    const sign = exponent < 0 ? '-' : '+';
    return `${m}e${sign}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  return stripZeros(value.toFixed(Math.max(0, digits - 1 - exponent)));
}

function stripZeros(text: string): string {
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

/** tqdm's postfix value: numbers as `{:2.3g}`, everything else as text. */
export function formatPostfixValue(value: unknown): string {
  return typeof value === 'number' ? formatG(value, 3) : String(value);
}

/** tqdm's clock: `mm:ss`, or `h:mm:ss` past an hour. */
export function formatClock(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mm = String(m).padStart(2, '0');
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

const BLOCKS = ' ▏▎▍▌▋▊▉█';

/** tqdm's bar of `width` cells with eighth-block resolution. */
export function tqdmBar(fraction: number, width = 10): string {
  const clamped = Math.min(1, Math.max(0, fraction));
  const eighths = Math.floor(clamped * width * 8);
  const full = Math.floor(eighths / 8);
  const partial = eighths % 8;
  const bar = '█'.repeat(full) + (full < width && partial > 0 ? BLOCKS[partial] : '');
  return bar.padEnd(width, ' ');
}

/** tqdm's rate: `3.10it/s`, or `2.50s/it` when slower than one a second. */
export function formatRate(rate: number | null, unit: string): string {
  if (rate === null || !Number.isFinite(rate) || rate <= 0) return `?${unit}/s`;
  if (rate < 1) return `${(1 / rate).toFixed(2).padStart(5)}s/${unit}`;
  return `${rate.toFixed(2).padStart(5)}${unit}/s`;
}

function postfixText(postfix: Record<string, string>, separator: string): string {
  return (
    Object.entries(postfix)
      // A postfix string that is not `name=value` pairs is one key with no value.
      .map(([k, v]) => (v === '' ? k : `${k}${separator}${v}`))
      .join(separator === '=' ? ', ' : ' - ')
  );
}

/** `train:  37%|███▋      | 37/100 [00:12<00:21,  3.10it/s, loss=0.52]` */
export function formatTqdm(data: ProgressData): string {
  const desc = data.desc ? `${data.desc}: ` : '';
  const post = Object.keys(data.postfix).length > 0 ? `, ${postfixText(data.postfix, '=')}` : '';
  const rate = formatRate(data.rate, data.unit);
  if (data.max === null || data.max <= 0) {
    return `${desc}${data.value}${data.unit} [${formatClock(data.elapsed)}, ${rate}${post}]`;
  }
  const fraction = data.value / data.max;
  const percent = String(Math.round(fraction * 100)).padStart(3);
  const remaining = data.remaining === null ? '?' : formatClock(data.remaining);
  return (
    `${desc}${percent}%|${tqdmBar(fraction)}| ${data.value}/${data.max} ` +
    `[${formatClock(data.elapsed)}<${remaining}, ${rate}${post}]`
  );
}

/** Keras's `%.4f` for logged values (`%.4e` when tiny). */
function kerasValue(text: string): string {
  const value = Number(text);
  if (!Number.isFinite(value) || text.trim() === '') return text;
  return Math.abs(value) > 1e-3 ? value.toFixed(4) : value.toExponential(4);
}

/** Keras's duration: `35s`, `1m 5s`; per step `74ms/step`. */
function kerasTime(seconds: number): string {
  if (seconds >= 3600) return `${Math.floor(seconds / 3600)}:${formatClock(seconds % 3600)}`;
  if (seconds >= 60) return `${Math.floor(seconds / 60)}m ${Math.floor(seconds % 60)}s`;
  return `${Math.round(seconds)}s`;
}

function kerasPerStep(seconds: number, steps: number): string {
  if (steps <= 0) return '';
  const per = seconds / steps;
  if (per >= 1) return `${Math.round(per)}s/step`;
  if (per >= 1e-3) return `${Math.round(per * 1e3)}ms/step`;
  return `${Math.round(per * 1e6)}us/step`;
}

/** `  7/469 [>.............................] - ETA: 34s - loss: 0.6933` */
export function formatKeras(data: ProgressData): string {
  const values = Object.entries(data.postfix)
    .map(([k, v]) => ` - ${k}: ${kerasValue(v)}`)
    .join('');
  if (data.max === null || data.max <= 0) {
    return `${data.value}/Unknown - ${kerasTime(data.elapsed)}${values}`;
  }
  const width = 30;
  const digits = String(data.max).length;
  const filled = Math.floor((width * Math.min(data.value, data.max)) / data.max);
  let bar = '';
  if (filled > 0) bar = '='.repeat(filled - 1) + (data.value < data.max ? '>' : '=');
  bar = bar.padEnd(width, '.');
  const head = `${String(data.value).padStart(digits)}/${data.max} [${bar}]`;
  if (data.done || data.value >= data.max) {
    return `${head} - ${kerasTime(data.elapsed)} ${kerasPerStep(data.elapsed, data.value)}${values}`;
  }
  const eta = data.remaining === null ? '' : ` - ETA: ${kerasTime(data.remaining)}`;
  return `${head}${eta}${values}`;
}

/**
 * The text beside a drawn bar (the page draws the bar itself): tqdm's
 * `37/100 [00:12<00:21,  3.08it/s, loss=0.52]`, Keras's `7/469 - ETA: 33s - loss: 0.6933`.
 */
export function progressTail(data: ProgressData): string {
  if (data.style === 'keras') {
    const line = formatKeras(data);
    return line.replace(/\s*\[[=>.]*\]/, '').trimStart();
  }
  const line = formatTqdm({ ...data, desc: undefined });
  const bar = line.indexOf('| ');
  return bar >= 0 ? line.slice(bar + 2) : line;
}

export function formatProgress(data: ProgressData): string {
  return data.style === 'keras' ? formatKeras(data) : formatTqdm(data);
}
