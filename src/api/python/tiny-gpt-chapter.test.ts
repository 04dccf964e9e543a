/**
 * The tiny-GPT chapter's Python edition (scripts/chapters/tiny-gpt-py.md) run cell by cell, as the
 * notebook runs it, at `size=test` on WebGPU when the test machine has it (else on the cpu): the
 * corpus loads through `load_text`, the model trains below a uniform guess's loss, and sampling
 * writes the asked number of characters of the vocabulary.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setAssetReader } from '../../engine/data/datasets';
import { builtDataReader } from '../../engine/data/datasets/built-data.testing';
import { testDevices } from '../../engine/testing/devices';
import { createIoGlobals } from '../../kernel/globals';
import { OutputSink } from '../../kernel/output-sink';
import { startPython } from './testing/pyodide';

await testDevices();
const sink = new OutputSink({ outputs: () => undefined, updateDisplay: () => undefined });
const python = await startPython(createIoGlobals({ current: () => sink }, { size: 'test' }));
const chapter = readFileSync(
  new URL('../../../scripts/chapters/tiny-gpt-py.md', import.meta.url),
  'utf8',
);
const cells = [...chapter.matchAll(/^```python\n([\s\S]*?)^```\s*$/gm)].map((m) => m[1]);

beforeAll(() => setAssetReader(builtDataReader()));
afterAll(() => setAssetReader(null));

describe('the tiny-GPT chapter in Python', () => {
  it('trains below ln(vocab) and samples text of the asked length', async () => {
    expect(cells.length).toBe(9);
    const printed: string[] = [];
    for (const cell of cells) printed.push(await python.output(cell));
    expect(printed[0]).toContain("size: test {'n_layer': 1");
    expect(printed[1]).toContain('1,062,772 characters');
    expect(printed[2]).toContain('vocabulary: 77 characters');
    expect(printed[2]).toContain('State of the Union\n');
    // The targets are the inputs shifted by one character.
    const [inputs, targets] = printed[4].split('\n').slice(1, 3);
    expect(inputs.slice(2, -1)).toBe(targets.slice(1, -2));
    expect(printed[6]).toContain('logits torch.Size([8, 16, 77])');
    const initial = Number(/loss ([\d.]+);/.exec(printed[6])?.[1]);
    expect(Math.abs(initial - Math.log(77))).toBeLessThan(0.6);

    const logs = [...printed[7].matchAll(/'val_loss': ([\d.]+)/g)].map((m) => Number(m[1]));
    expect(logs.length).toBe(3);
    const final = (await python.run('final_loss')) as number;
    expect(final).toBeCloseTo(logs[2], 3);
    expect(final).toBeLessThan(Math.log(77) - 0.5);
    expect(final).toBeLessThan(logs[0]);

    const sample = (await python.run('sample')) as string;
    const prompt = 'The state of our Union is';
    expect(sample.startsWith(prompt)).toBe(true);
    expect(sample.length).toBe(prompt.length + 60);
    const vocabulary = new Set((await python.run('"".join(chars)')) as string);
    for (const c of sample) expect(vocabulary.has(c)).toBe(true);
  }, 240_000);
});
