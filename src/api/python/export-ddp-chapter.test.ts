/**
 * The chapters' Python editions export: every code cell of torch-gpu-py (DataParallel section
 * included) and tf-multi-gpu-py (MirroredStrategy) rewrites into a script that compiles, with
 * the chapter's DataParallel and loaders translated.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startPython } from './testing/pyodide';

const python = await startPython();

function codeCells(chapter: string): string[] {
  const text = readFileSync(
    new URL(`../../../scripts/chapters/${chapter}.md`, import.meta.url),
    'utf8',
  );
  return [...text.matchAll(/```python\n([\s\S]*?)```/g)].map((m) => m[1]);
}

async function exportChapter(chapter: string) {
  const json = await python.run(`
import json
from gpubook.export_ddp import export
_r = export(json.loads(${JSON.stringify(JSON.stringify(codeCells(chapter)))}), None, "${chapter}", {})
compile(_r["script"], "train.py", "exec")
_r.pop("module")
json.dumps(_r)
`);
  return JSON.parse(json as string) as {
    framework: string;
    script: string;
    untranslated: { code: string; reason: string }[];
  };
}

describe('the chapters export', () => {
  it('torch-gpu-py: DataParallel becomes DDP, loaders get samplers', async () => {
    const r = await exportChapter('torch-gpu-py');
    expect(r.framework).toBe('torch');
    expect(r.script).toContain(
      'model = DistributedDataParallel(linear.to(DEVICE), device_ids=DEVICE_IDS)',
    );
    expect(r.script).toContain("torch.save(model.module.state_dict(), 'model_parameter.pt')");
    expect(r.script).toContain('sampler=DistributedSampler(');
    expect(r.script).toContain(
      "device = torch.device(DEVICE if torch.cuda.is_available() else 'cpu')",
    );
    expect(r.untranslated.map((u) => u.reason)).toContain(
      'torchkeras.KerasModel runs its own loop (through accelerate), not DistributedDataParallel: launch it with accelerate',
    );
  });

  it('tf-multi-gpu-py: MirroredStrategy becomes the MultiWorkerMirroredStrategy', async () => {
    const r = await exportChapter('tf-multi-gpu-py');
    expect(r.framework).toBe('tensorflow');
    expect(r.script).toContain('strategy = STRATEGY');
    expect(r.untranslated).toEqual([]);
  });
});
