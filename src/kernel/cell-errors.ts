/**
 * Errors raised about a cell itself (syntax, interrupt), and the mapping of a runtime error's
 * stack back to the cell's own lines.
 */

/** A syntax error with the cell's 1-based line and column, found before anything runs. */
export class CellSyntaxError extends SyntaxError {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${message} (line ${line}, column ${column})`);
    this.name = 'SyntaxError';
  }

  /** Accepts what sucrase or acorn throw: a message ending in "(line:col)" and/or a `loc`. */
  static fromParser(error: unknown, source: string): CellSyntaxError {
    const raw = error instanceof Error ? error.message : String(error);
    const loc = (error as { loc?: { line: number; column: number } } | null)?.loc;
    const match = /\((\d+):(\d+)\)\s*$/.exec(raw);
    const message = raw.replace(/\s*\(\d+:\d+\)\s*$/, '');
    let line = loc?.line ?? (match ? Number(match[1]) : 1);
    let column = (loc?.column ?? (match ? Number(match[2]) : 0)) + 1;
    const pos = (error as { pos?: number } | null)?.pos;
    if (!loc && !match && typeof pos === 'number') {
      const before = source.slice(0, pos).split('\n');
      line = before.length;
      column = before[before.length - 1].length + 1;
    }
    return new CellSyntaxError(message, line, column);
  }
}

/** Thrown inside a cell when the user interrupts it. */
export class KernelInterrupt extends Error {
  constructor() {
    super('Interrupted by the user');
    this.name = 'KeyboardInterrupt';
  }
}

/** What a cell's error output shows: name, message and the stack lines that point into cells. */
export interface CellErrorReport {
  ename: string;
  evalue: string;
  traceback: string[];
}

/**
 * The code of cell N is compiled with `//# sourceURL=cell-N.ts`, its first line at `lineOffset`.
 * Frames inside cells are rewritten to `cell-N.ts:line:column` of the cell; kernel frames are
 * dropped.
 */
export function reportError(
  error: unknown,
  lineOffset: number,
  cellLines = Infinity,
): CellErrorReport {
  if (error instanceof Error) {
    const traceback: string[] = [];
    const cellFrame = /(cell-\d+\.ts):(\d+):(\d+)/;
    for (const frame of (error.stack ?? '').split('\n').slice(1)) {
      const m = cellFrame.exec(frame);
      if (!m) continue;
      const line = Number(m[2]) - lineOffset;
      // Lines outside the cell belong to the wrapper (its async call), not to user code.
      if (line < 1 || line > cellLines) continue;
      const where = frame.trim().replace(/^at\s+/, '');
      const fn = /^(\S+) \(/.exec(where)?.[1];
      const name = fn && !fn.startsWith('eval') && fn !== 'anonymous' ? `${fn} ` : '';
      traceback.push(`  at ${name}(${m[1]}, line ${line}, column ${m[3]})`);
    }
    if (error instanceof CellSyntaxError) traceback.length = 0;
    return { ename: error.name || 'Error', evalue: error.message, traceback };
  }
  return {
    ename: 'Error',
    evalue: `A value that is not an Error was thrown: ${describeThrown(error)}`,
    traceback: [],
  };
}

function describeThrown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  try {
    return String(JSON.stringify(value) ?? value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}
