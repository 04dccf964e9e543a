/**
 * A Vitest reporter that turns a blocked test worker into a prompt, named failure.
 *
 * Vitest's timeouts are timers in the test's own worker, so a test stuck in synchronous code
 * (a busy loop, or `Atomics.wait` on a word nobody will write) never times out: the worker sends
 * nothing more, and the run waits until CI's own limit kills it, naming nothing. This reporter
 * lives in Vitest's main process, which stays responsive, and notes every file and test case that
 * starts or ends. When nothing has happened for `stallMs` (far longer than any test's timeout),
 * it prints the files still running and the last test case that started, and ends the run.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { Reporter, TestCase, TestModule } from 'vitest/node';

export interface WatchdogOptions {
  /** Silence, in milliseconds, after which the run counts as blocked. */
  stallMs: number;
  /** How often to look, in milliseconds. */
  checkEveryMs?: number;
  /** What to do when blocked (default: print and exit the process with status 1). */
  onStall?: (report: string) => void;
  now?: () => number;
}

export class VitestWatchdog implements Reporter {
  private lastEvent: number;
  private lastCase = '(none yet)';
  private readonly running = new Set<string>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly now: () => number;

  constructor(private readonly options: WatchdogOptions) {
    this.now = options.now ?? (() => Date.now());
    this.lastEvent = this.now();
  }

  onTestRunStart(): void {
    this.touch();
    this.timer = setInterval(() => this.check(), this.options.checkEveryMs ?? 15_000);
    // The watchdog alone must not keep Vitest's process alive.
    this.timer.unref();
  }

  onTestRunEnd(): void {
    clearInterval(this.timer);
  }

  onTestModuleStart(module: TestModule): void {
    this.running.add(module.moduleId);
    this.touch();
  }

  onTestModuleEnd(module: TestModule): void {
    this.running.delete(module.moduleId);
    this.touch();
  }

  onTestCaseReady(testCase: TestCase): void {
    this.lastCase = `${testCase.module.moduleId} > ${testCase.fullName}`;
    this.touch();
  }

  onTestCaseResult(): void {
    this.touch();
  }

  /** Looks once; exported for the watchdog's own test. */
  check(): void {
    const silent = this.now() - this.lastEvent;
    if (silent < this.options.stallMs) return;
    const files = [...this.running].join(', ') || '(none reported)';
    const report =
      `vitest watchdog: no test has started or ended for ${Math.round(silent / 1000)} s, ` +
      'so a test worker is blocked in synchronous code (a loop or Atomics.wait no timeout can ' +
      `interrupt). Running: ${files}. Last test case that started: ${this.lastCase}.`;
    clearInterval(this.timer);
    (this.options.onStall ?? exitWith)(report);
  }

  private touch(): void {
    this.lastEvent = this.now();
  }
}

function exitWith(report: string): void {
  console.error(`\n${report}\n`);
  // The blocked worker would outlive Vitest (and keep CI waiting); it is our child, so end it.
  for (const pid of childProcesses(process.pid)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  process.exit(1);
}

/** Direct children of `parent`, from Linux's /proc (none elsewhere). */
function childProcesses(parent: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  return entries
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        // Fields after the parenthesised command: state, then the parent's pid.
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === parent;
      } catch {
        return false;
      }
    })
    .map(Number);
}
