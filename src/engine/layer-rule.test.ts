/**
 * The layer rule (eslint.config.js, layers/no-upward-import) as `npm run lint` applies it: an
 * import from a higher layer is an error, one from the same or a lower layer is not.
 */
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const eslint = new ESLint({ cwd: ROOT });

async function layerErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${ROOT}${file}` });
  return result.messages
    .filter((m) => m.ruleId === 'layers/no-upward-import')
    .map((m) => m.message);
}

describe('the layer rule', () => {
  it('refuses imports from a higher layer, types included', async () => {
    expect(
      await layerErrors('src/engine/ops/x.ts', "import { torch } from '../../api/torch';\n"),
    ).toEqual(["src/engine must not import from src/api (a higher layer): '../../api/torch'"]);
    expect(
      await layerErrors('src/kernel/x.ts', "import type { Cell } from '../notebook/model';\n"),
    ).toHaveLength(1);
    expect(
      await layerErrors(
        'src/api/x.ts',
        "export { run } from '../app/run';\nvoid import('../panels/y');\n",
      ),
    ).toHaveLength(2);
  });

  it('allows its own layer and those below', async () => {
    expect(
      await layerErrors(
        'src/panels/x.ts',
        "import { a } from '../engine';\nimport { b } from '../kernel/protocol';\nimport { c } from './y';\n",
      ),
    ).toEqual([]);
  });
});
