/**
 * The page's half of the DistributedDataParallel export: the report the kernel writes is checked
 * before use, and the zip holds the four files with their exact bytes. (The Python half, with
 * real PyTorch, is tested in src/api/python/export-ddp-*.test.ts.)
 */
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { createNotebook } from '../notebook/model';
import { ddpZip, exportProgram, parseReport } from './ddp-export';

const REPORT = {
  framework: 'torch',
  script_name: 'train.py',
  script: 'import torch\n',
  readme: '# t\n',
  requirements: 'torch\n',
  model: { name: 'net', why: '`net` (Linear)' },
  untranslated: [{ cell: 1, line: 2, code: 'import js', reason: 'browser-only' }],
  dropped: [{ cell: 1, line: 1, code: '!pip install x' }],
  changes: [],
  has_weights: true,
};

describe('DDP export (page side)', () => {
  it('reads the kernel report and rejects a malformed one', () => {
    const parsed = parseReport(JSON.stringify(REPORT));
    expect(parsed.scriptName).toBe('train.py');
    expect(parsed.hasWeights).toBe(true);
    expect(parsed.untranslated[0].reason).toBe('browser-only');
    expect(() => parseReport(JSON.stringify({ ...REPORT, script: 3 }))).toThrow(/script/);
    expect(() => parseReport(JSON.stringify({ ...REPORT, framework: 'jax' }))).toThrow(/jax/);
  });

  it('zips the script, README.md, requirements.txt and the weights', () => {
    const { hasWeights, ...report } = parseReport(JSON.stringify(REPORT));
    expect(hasWeights).toBe(true);
    const weights = new Uint8Array([8, 0, 0, 0, 0, 0, 0, 0, 123, 125, 32, 32, 32, 32, 32, 32]);
    const files = unzipSync(ddpZip({ report, weights }));
    expect(Object.keys(files).sort()).toEqual([
      'README.md',
      'requirements.txt',
      'train.py',
      'weights.safetensors',
    ]);
    expect(strFromU8(files['train.py'])).toBe('import torch\n');
    expect([...files['weights.safetensors']]).toEqual([...weights]);
    expect(Object.keys(unzipSync(ddpZip({ report, weights: null })))).not.toContain(
      'weights.safetensors',
    );
  });

  it('passes the code cells and the title to the kernel as JSON', () => {
    const notebook = createNotebook({ title: 'py "quoted"' });
    const program = exportProgram(notebook);
    expect(program).toContain('export_to_store(');
    expect(program).toContain(JSON.stringify(JSON.stringify('py "quoted"')));
  });
});
