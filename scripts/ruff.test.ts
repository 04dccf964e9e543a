/**
 * `node scripts/ruff.mjs` (ruff in `npm run lint`) reads every .py file in the repo: the ones a
 * plain walk of the tree finds (less build output and ruff.toml's one exclusion) are exactly the
 * ones it lists, the kernel's own modules and gpubook's packages among them.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Folders of installed packages, build output and test reports, never the repo's own code. */
const SKIP = new Set(['node_modules', 'dist', 'test-results', 'playwright-report', 'public']);

function walk(dir: string, found: string[]): string[] {
  for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (!entry.name.startsWith('.') && !SKIP.has(entry.name)) walk(rel, found);
    } else if (entry.name.endsWith('.py')) found.push(rel);
  }
  return found;
}

it('lists every .py file in the repo but the verbatim fixtures (a chapter, the PyTorch tutorials)', () => {
  const listed = execFileSync(process.execPath, ['scripts/ruff.mjs', '--list'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\n')
    .filter(Boolean);
  expect(listed).toContain('src/kernel/python/modules/_gpubook_run_cell.py');
  expect(listed).toContain('src/kernel/python/define_module.py');
  expect(listed).toContain('src/api/python/torch/__init__.py');
  const excluded = [
    'src/api/python/testing/chapter_gpu.py',
    'e2e/fixtures/pytorch-basics.py',
    'e2e/fixtures/tf-tutorials.py',
  ];
  for (const file of excluded) expect(listed).not.toContain(file);
  expect(listed).toEqual(
    walk('', [])
      .filter((f) => !excluded.includes(f))
      .sort(),
  );
});

it("every .py file parses under Debian's CPython (3.11), where the Python glue is tested too", () => {
  const python = '/usr/bin/python3';
  const files = execFileSync(process.execPath, ['scripts/ruff.mjs', '--list'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\n')
    .filter(Boolean);
  // ast.parse, not py_compile: nothing is written beside the sources.
  const check =
    'import ast, sys\nfor f in sys.argv[1:]:\n    ast.parse(open(f, encoding="utf-8").read(), f)';
  try {
    execFileSync(python, ['--version']);
  } catch {
    console.warn(`skipped: no ${python} to parse the .py files with`);
    return;
  }
  expect(() =>
    execFileSync(python, ['-c', check, ...files], { cwd: ROOT, encoding: 'utf8' }),
  ).not.toThrow();
});
