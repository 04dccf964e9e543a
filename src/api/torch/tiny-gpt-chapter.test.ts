/**
 * The tiny-GPT chapter's TypeScript edition (scripts/chapters/tiny-gpt.md) run cell by cell in a
 * kernel session, as the notebook runs it, at `size=test` (on WebGPU when the test machine has
 * it): the corpus loads through `loadText`, the model trains below a uniform guess's loss, and
 * sampling writes the asked number of characters of the vocabulary.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCellApiDts } from '../../../scripts/cell-api-dts';
import { checkCells } from '../../notebook/editor/testing/checkCells';
import * as api from '..';
import { setAssetReader } from '../../engine/data/datasets';
import { builtDataReader } from '../../engine/data/datasets/built-data.testing';
import { setTrainingOutput } from '../../engine/training';
import { testDevices } from '../../engine/testing/devices';
import { startTestSession } from '../../kernel/testing/session-harness';

await testDevices();
const chapter = readFileSync(
  new URL('../../../scripts/chapters/tiny-gpt.md', import.meta.url),
  'utf8',
);
const cells = [...chapter.matchAll(/^```ts\n([\s\S]*?)^```\s*$/gm)].map((m) => m[1]);

beforeAll(() => setAssetReader(builtDataReader()));
afterAll(() => {
  setAssetReader(null);
  setTrainingOutput(null);
});

describe('the tiny-GPT chapter in TypeScript', () => {
  it('trains below ln(vocab) and samples text of the asked length', async () => {
    const kernel = startTestSession(async () => ({
      info: { backend: 'cpu', adapter: null, cooperativeInterrupt: false },
      globals: { ...api },
      attachOutput: (write) => setTrainingOutput(write),
    }));
    expect(cells.length).toBe(9);
    const printed: string[] = [];
    for (const cell of cells) {
      const { cellId, done } = kernel.run(cell);
      const event = await done;
      const outputs = kernel.outputsOf(cellId);
      const errors = outputs.flatMap((o) =>
        o.kind === 'error' ? [`${o.ename}: ${o.evalue}`] : [],
      );
      expect(errors, cell.slice(0, 80)).toEqual([]);
      expect(event.status).toBe('ok');
      printed.push(outputs.map((o) => (o.kind === 'stream' ? o.text : '')).join(''));
    }
    expect(printed[0]).toContain('size: test');
    expect(printed[1]).toContain('1,062,772 characters');
    expect(printed[2]).toContain('vocabulary: 77 characters');
    expect(printed[2]).toContain('State of the Union\n');
    // The targets are the inputs shifted by one character.
    const [inputs, targets] = printed[4]
      .split('\n')
      .slice(1, 3)
      .map((s) => JSON.parse(s) as string);
    expect(inputs.slice(1)).toBe(targets.slice(0, -1));
    expect(printed[6]).toContain('logits [ 8, 16, 77 ]');
    const initial = Number(/loss ([\d.]+);/.exec(printed[6])?.[1]);
    expect(Math.abs(initial - Math.log(77))).toBeLessThan(0.6);

    const logs = [...printed[7].matchAll(/val_loss: ([\d.]+)/g)].map((m) => Number(m[1]));
    expect(logs.length).toBe(3);
    const final = Number(/validation loss ([\d.]+)/.exec(printed[7])?.[1]);
    expect(final).toBeCloseTo(logs[2], 2);
    expect(final).toBeLessThan(Math.log(77) - 0.5);
    expect(final).toBeLessThan(logs[0]);

    const sample = printed[8].replace(/\n$/, '');
    const prompt = 'The state of our Union is';
    expect(sample.startsWith(prompt)).toBe(true);
    expect(sample.length).toBe(prompt.length + 60);
    // Characters of the vocabulary only (its alphabet, docs/datasets.md).
    for (const c of sample) expect(c).toMatch(/^[A-Za-z0-9 \n.,;:'"?!()$%&/-]$/);
  }, 240_000);

  it('type-checks against the cell API declarations the editor uses', () => {
    const dts = generateCellApiDts({ root: fileURLToPath(new URL('../../..', import.meta.url)) });
    expect(dts.problems).toEqual([]);
    // One notebook scope: later cells use the names earlier cells declared.
    expect(checkCells([dts.text], [cells.join('\n')])).toEqual([]);
  }, 120_000);
});
