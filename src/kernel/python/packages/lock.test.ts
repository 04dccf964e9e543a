import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { mergeLocks, normalizeName, PackageIndex, parseLockPackages, type LockEntry } from './lock';

const lockPath = createRequire(import.meta.url).resolve('pyodide/pyodide-lock.json');
const bundled = parseLockPackages(readFileSync(lockPath, 'utf8'));

/** The same closure walked by CPython over the raw JSON: an independent reading of the lock. */
function pythonClosure(names: string[]): string[] {
  const script = [
    'import json, sys',
    'packages = json.load(open(sys.argv[1]))["packages"]',
    'seen = set()',
    'def visit(name):',
    '    if name in seen: return',
    '    seen.add(name)',
    '    for dep in packages[name]["depends"]: visit(dep)',
    'for name in sys.argv[2:]: visit(name)',
    'print(json.dumps(sorted(seen)))',
  ].join('\n');
  return JSON.parse(
    execFileSync('python3', ['-c', script, lockPath, ...names], { encoding: 'utf8' }),
  ) as string[];
}

describe('the package lock', () => {
  const index = new PackageIndex(bundled);

  it('finds packages by the modules they provide', () => {
    expect(index.packageFor('numpy')?.name).toBe('numpy');
    expect(index.packageFor('sklearn')?.name).toBe('scikit-learn');
    expect(index.packageFor('PIL')?.name).toBe('Pillow');
    expect(index.packageFor('dateutil')?.name).toBe('python-dateutil');
    expect(index.packageFor('no_such_module')).toBeUndefined();
  });

  it("orders a closure dependencies first, with the same packages as CPython's walk", () => {
    for (const roots of [['pandas'], ['matplotlib'], ['scikit-learn'], ['scipy', 'pandas']]) {
      const entries = roots.map((name) => index.get(name) as LockEntry);
      const order = index.closure(entries, () => false);
      const names = order.map((entry) => normalizeName(entry.name));
      expect([...names].sort()).toEqual(pythonClosure(roots));
      order.forEach((entry, i) => {
        for (const dependency of entry.depends) {
          expect(names.indexOf(normalizeName(dependency))).toBeLessThan(i);
        }
      });
    }
  });

  it('skips what is there already, and does not walk below it', () => {
    const order = index.closure([index.get('pandas') as LockEntry], (e) => e.name === 'numpy');
    expect(order.map((e) => e.name)).not.toContain('numpy');
    expect(order.at(-1)?.name).toBe('pandas');
  });

  it("lets the package base's lock add packages but not replace the bundled ones", () => {
    const extra = parseLockPackages(
      JSON.stringify({
        packages: {
          numpy: { ...bundled.numpy, version: '9.9', sha256: '00'.repeat(32) },
          My_Pkg: { ...bundled.numpy, name: 'My_Pkg', imports: ['mypkg'], depends: ['numpy'] },
          evil: { ...bundled.numpy, name: 'evil', file_name: '../../etc/passwd' },
        },
      }),
    );
    const merged = new PackageIndex(mergeLocks(bundled, extra));
    expect(merged.get('numpy')?.version).toBe(bundled.numpy.version);
    expect(merged.packageFor('mypkg')?.name).toBe('My_Pkg');
    expect(merged.get('my-pkg')).toBeDefined();
    expect(merged.get('evil')).toBeUndefined();
  });
});
