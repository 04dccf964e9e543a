/**
 * The bench's cell engines (bench/src/engines/cells.ts): every case they are given has its setup
 * and time cells in both languages, and a case run through a real kernel client and session (the
 * TypeScript cells, at a small size, on WebGPU when the test machine has it) reports exactly the
 * seconds its time cell printed, warm-up dropped; a failing cell is reported as the case's error.
 */
import { describe, expect, it } from 'vitest';
import * as api from '../src/api';
import { gpuDevices } from '../src/engine/devices/registry';
import { testDevices } from '../src/engine/testing/devices';
import { KernelClient } from '../src/kernel/client';
import type { CellOutput } from '../src/kernel/protocol';
import { KernelSession } from '../src/kernel/session';
import { casesFor } from '../bench/src/cases';
import { parseCells, printedSeconds, runCellCase } from '../bench/src/engines/cells';
import TS_CELLS from '../bench/src/engines/cells/cells-ts.md?raw';
import PYTHON_CELLS from '../bench/src/engines/cells/cells-python.md?raw';
import type { CaseRequest } from '../bench/src/protocol';

await testDevices();

/** A kernel client whose worker is a session in this process, with the cell API as globals. */
function inProcessKernel(): { client: KernelClient; printed: () => string } {
  let text = '';
  const client = new KernelClient({
    params: {},
    openWorker: (events) => {
      const session = new KernelSession(
        (event) => {
          if (event.type === 'output') {
            text += event.outputs
              .map((o: CellOutput) => (o.kind === 'stream' ? o.text : ''))
              .join('');
          }
          events.event(event);
        },
        async () => ({
          info: { backend: 'webgpu', adapter: null, cooperativeInterrupt: false },
          globals: { ...api },
        }),
      );
      return { post: (request) => session.handle(request), terminate: () => {} };
    },
  });
  client.start();
  return { client, printed: () => text };
}

const request = (name: string, params: Record<string, number>): CaseRequest => ({
  name,
  flops: 0,
  params,
  warmup: 1,
  repeats: 3,
  budgetMs: 0,
});

describe('the bench cell engines', () => {
  it('have a setup and a time cell for every case, in TypeScript and in Python', () => {
    const names = new Set(casesFor('cell-ts').map((c) => c.name));
    expect(names).toEqual(new Set(casesFor('cell-python').map((c) => c.name)));
    for (const file of [TS_CELLS, PYTHON_CELLS]) {
      const cells = parseCells(file);
      for (const name of names) {
        expect(cells.get(name)?.setup, name).toMatch(/\S/);
        expect(cells.get(name)?.time, name).toMatch(/bench-seconds/);
      }
    }
    expect(printedSeconds('x\nbench-seconds [0.5, 0.25]\n')).toEqual([0.5, 0.25]);
    expect(printedSeconds('bench-seconds ["a"]')).toBeNull();
  });

  it.skipIf(gpuDevices().length === 0)(
    "reports the seconds the time cell printed, without its warm-up, and a cell's error",
    async () => {
      const { client, printed } = inProcessKernel();
      const n = 8 + Math.floor(Math.random() * 24);
      const result = await runCellCase(client, 'cell-ts', request('matmul', { m: n, k: n, n }));
      expect(result.error).toBeUndefined();
      const line = /bench-seconds (.*)/.exec(printed())?.[1];
      const runs = JSON.parse(line ?? 'null') as number[];
      expect(runs).toHaveLength(4);
      expect(result.runs).toEqual(runs);
      expect(result.seconds).toEqual(runs.slice(1));
      const loop = await runCellCase(
        client,
        'cell-ts',
        request('matmul-loop', { m: n, k: n, n, products: 5 }),
      );
      expect(loop.seconds).toHaveLength(5);
      // No such parameter: the setup cell throws, and the case says so instead of timing.
      const broken = await runCellCase(client, 'cell-ts', request('lstm-step', {}));
      expect(broken.seconds).toEqual([]);
      expect(broken.error).toMatch(/^setup cell error: /);
      client.dispose();
    },
    60_000,
  );
});
