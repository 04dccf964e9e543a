/**
 * The spelling table names what each face really has: every `torch.…` / `tf.…` name in a
 * TypeScript snippet is a member of the TypeScript layer's objects, and every one in a Python
 * snippet is in the names the Python packages answer to (python-names.json, generated from them).
 */
import { describe, expect, it } from 'vitest';
import { tf, torch } from '../../api';
import {
  describe as describeName,
  importAliases,
  PYTHON_NAMES,
} from '../../notebook/editor/python/python-api';
import { SNIPPETS } from './snippets';

/** The dotted API names a snippet uses (`tf.config.setVisibleDevices`), without its arguments. */
function apiNames(snippet: string): string[] {
  return [...snippet.matchAll(/(?<![\w.])(?:torch|tf)(?:\.\w+)+/g)].map((m) => m[0]);
}

function member(root: object, path: string[]): unknown {
  let value: unknown = root;
  for (const part of path) {
    value =
      (value !== null && typeof value === 'object') || typeof value === 'function'
        ? (value as Record<string, unknown>)[part]
        : undefined;
  }
  return value;
}

describe('the spelling table', () => {
  it('has the same entries in both languages', () => {
    expect(Object.keys(SNIPPETS.python).sort()).toEqual(Object.keys(SNIPPETS.typescript).sort());
  });

  it("names only the TypeScript layer's members in TypeScript", () => {
    const roots: Record<string, object> = { torch, tf };
    const names = Object.values(SNIPPETS.typescript).flatMap(apiNames);
    expect(names).toContain('tf.config.setVisibleDevices');
    for (const name of names) {
      const [root, ...path] = name.split('.');
      expect(member(roots[root], path), name).toBeDefined();
    }
  });

  it("names only the Python faces' names in Python, all snake_case", () => {
    const aliases = importAliases([]);
    const names = Object.values(SNIPPETS.python).flatMap(apiNames);
    expect(names).toContain('tf.config.set_visible_devices');
    for (const name of names) {
      expect(describeName(name, aliases), name).not.toBeNull();
      expect(name, name).not.toMatch(/\.[a-z]+[A-Z]/);
    }
    expect(PYTHON_NAMES.gpubook.compare_devices).toBeDefined();
    expect(SNIPPETS.python.compareDevices).toMatch(/^compare_devices\(/);
  });
});
