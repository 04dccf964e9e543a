/**
 * The page side of the cell engines (./cells.ts): one kernel per engine instance, made by the
 * app's own `createKernelClient` (src/app/kernelFactory.ts: the kernel worker module the app
 * starts, the same init and execute messages, the app's device and tuning defaults), started at
 * the engine's first case and disposed of when the page closes the engine.
 */
import { createKernelClient } from '../../../src/app/kernelFactory';
import type { KernelClient } from '../../../src/kernel/client';
import type { CaseRequest, CaseResult } from '../protocol';
import { runCellCase, type CellEngine } from './cells';

export interface CellEngineHandle {
  run(cases: CaseRequest[]): Promise<void>;
  close(): void;
}

export function startCellEngine(
  engine: CellEngine,
  report: (result: CaseResult) => void,
): CellEngineHandle {
  let kernel: KernelClient | null = null;
  return {
    async run(cases) {
      if (!kernel) {
        // No link parameters and no device settings: a notebook opened from the home page.
        kernel = createKernelClient({});
        kernel.start();
      }
      for (const request of cases) report(await runCellCase(kernel, engine, request));
    },
    close: () => kernel?.dispose(),
  };
}
