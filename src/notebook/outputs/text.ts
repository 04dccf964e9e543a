/** Turning raw stream text into what a terminal would show, and cutting very long text short. */

// CSI (colors, cursor moves), OSC (titles, links) and lone two-character escapes. Built from
// strings because escape and bell are control characters, which regex literals should not hold.
const ESC = String.fromCharCode(0x1b);
const BEL = String.fromCharCode(0x07);
const ANSI = new RegExp(
  `${ESC}\\[[0-?]*[ -/]*[@-~]|${ESC}\\][^${BEL}${ESC}]*(?:${BEL}|${ESC}\\\\)|${ESC}[@-Z\\\\-_]`,
  'g',
);

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/**
 * Text as a terminal shows it: escapes removed, and a carriage return (progress lines written
 * with `\r`) overwriting its line from the start.
 */
export function terminalText(text: string): string {
  const clean = stripAnsi(text).replace(/\r\n/g, '\n');
  if (!clean.includes('\r')) return clean;
  return clean
    .split('\n')
    .map((line) => {
      const parts = line.split('\r');
      // Later parts overwrite earlier ones only as far as they reach.
      let shown = '';
      for (const part of parts) shown = part + shown.slice(part.length);
      return shown;
    })
    .join('\n');
}

export interface TruncatedText {
  head: string;
  tail: string;
  /** Line breaks left out between head and tail (0 when the text is shown whole). */
  hiddenLines: number;
  hiddenChars: number;
}

export interface TruncateLimits {
  /** Text with at most this many lines and characters is shown whole. */
  maxLines: number;
  maxChars: number;
  headLines: number;
  tailLines: number;
}

export const DEFAULT_TRUNCATE_LIMITS: TruncateLimits = {
  maxLines: 200,
  maxChars: 40_000,
  headLines: 100,
  tailLines: 50,
};

/** Keeps the first and last lines of long text (each part also capped in characters). */
export function truncateText(text: string, limits = DEFAULT_TRUNCATE_LIMITS): TruncatedText {
  const lineCount = countNewlines(text) + (text.endsWith('\n') ? 0 : 1);
  if (lineCount <= limits.maxLines && text.length <= limits.maxChars) {
    return { head: text, tail: '', hiddenLines: 0, hiddenChars: 0 };
  }
  const partChars = Math.floor(limits.maxChars / 2);
  let headEnd = nthIndexOf(text, '\n', limits.headLines);
  headEnd = Math.min(headEnd < 0 ? text.length : headEnd + 1, partChars);
  let tailStart = nthLastIndexOf(text, '\n', limits.tailLines + 1);
  tailStart = Math.max(tailStart < 0 ? 0 : tailStart + 1, text.length - partChars, headEnd);
  const head = text.slice(0, headEnd);
  const tail = text.slice(tailStart);
  const hidden = text.slice(headEnd, tailStart);
  return {
    head,
    tail,
    hiddenLines: countNewlines(hidden),
    hiddenChars: hidden.length,
  };
}

function countNewlines(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) count++;
  return count;
}

function nthIndexOf(text: string, needle: string, n: number): number {
  let index = -1;
  for (let k = 0; k < n; k++) {
    index = text.indexOf(needle, index + 1);
    if (index < 0) return -1;
  }
  return index;
}

function nthLastIndexOf(text: string, needle: string, n: number): number {
  let index = text.length;
  for (let k = 0; k < n; k++) {
    index = text.lastIndexOf(needle, index - 1);
    if (index < 0) return -1;
  }
  return index;
}
