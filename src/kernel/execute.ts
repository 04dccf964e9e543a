/**
 * Compiles and runs one cell against the notebook's scope object.
 *
 * Each run gets its own interrupt hooks: once a run is cancelled it stays cancelled, so code it
 * left behind (a callback, an orphaned async loop) stops at its next loop iteration or await
 * instead of running on into later cells. The price: a function that an interrupted cell defined
 * is stopped too when a later cell calls it, until the defining cell runs again. A run that
 * finished is never cancelled by the page's flag, so its functions keep working after an
 * interrupt stopped them inside a later cell.
 */
import { KernelInterrupt } from './cell-errors';
import { rewriteCell, type RewrittenCell } from './rewrite';
import { transpileCell } from './transpile';

/** Lines V8's Function constructor puts before the body: `function anonymous(a,b\n) {\n`. */
const FUNCTION_HEADER_LINES = 2;

export interface CompiledCell {
  run(scope: object, hooks: InterruptHooks): Promise<unknown>;
  declaredNames: string[];
  /** Subtract from a stack line number in `cell-N.ts` to get the cell's line. */
  lineOffset: number;
}

export function compileCell(source: string, executionCount: number): CompiledCell {
  const rewritten: RewrittenCell = rewriteCell(transpileCell(source));
  const fn = new Function(
    '__scope',
    '__k',
    `${rewritten.body}\n//# sourceURL=cell-${executionCount}.ts`,
  ) as (scope: object, hooks: InterruptHooks) => Promise<unknown>;
  return {
    run: (scope, hooks) => {
      const result = fn(scope, hooks);
      const finished = () => hooks.finished?.();
      result.then(finished, finished);
      return result;
    },
    declaredNames: rewritten.declaredNames,
    lineOffset: FUNCTION_HEADER_LINES + rewritten.wrapperLines,
  };
}

/** What the rewritten cell calls in every loop and after every await. */
export interface InterruptHooks {
  tick(): void;
  after<T>(value: T): T;
  /** The cell's own promise has settled; the code it defined may still run, called by later cells. */
  finished?(): void;
}

export class RunControl implements InterruptHooks {
  private cancelledFlag = false;
  private settled = false;

  /** `sharedFlag[0] === 1` means the page asked to interrupt (works even in synchronous loops). */
  constructor(private readonly sharedFlag: Int32Array | null) {}

  get cancelled(): boolean {
    return this.cancelledFlag;
  }

  cancel(): void {
    this.cancelledFlag = true;
  }

  finished(): void {
    this.settled = true;
  }

  tick(): void {
    if (this.cancelledFlag) throw new KernelInterrupt();
    if (this.sharedFlag && Atomics.load(this.sharedFlag, 0) === 1) {
      // The flag interrupts whatever runs now, including a loop in a function an earlier cell
      // defined (whose checks go to that cell's control). Only a run still in progress stays
      // cancelled: a finished cell's functions must work again once the flag is cleared.
      if (!this.settled) this.cancelledFlag = true;
      throw new KernelInterrupt();
    }
  }

  after<T>(value: T): T {
    this.tick();
    return value;
  }
}

/** Makes sure every name the cell declares exists on the scope, so assignments land there. */
export function declareNames(scope: Record<string, unknown>, names: string[]): void {
  for (const name of names) {
    if (!Object.prototype.hasOwnProperty.call(scope, name)) scope[name] = undefined;
  }
}
