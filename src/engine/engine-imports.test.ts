/**
 * The engine's run-time import graph has no cycles. A cycle makes the order modules initialise in
 * depend on which one is imported first, so a module-level value built from an import can find it
 * still undefined. Type-only imports are left out: the compiler erases them.
 */
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ENGINE = dirname(fileURLToPath(import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.(test|bench)\.ts$/.test(name) ? [path] : [];
  });
}

function resolveImport(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(from), specifier);
  for (const candidate of [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) {
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

/** Whether an import or export statement brings in a value (or runs the module) at run time. */
function isRuntime(statement: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(statement)) {
    if (statement.isTypeOnly) return false;
    const named = statement.exportClause;
    return !(named && ts.isNamedExports(named) && named.elements.every((e) => e.isTypeOnly));
  }
  const clause = statement.importClause;
  if (!clause) return true; // import './x' runs x
  if (clause.isTypeOnly) return false;
  const bindings = clause.namedBindings;
  if (clause.name || !bindings || ts.isNamespaceImport(bindings)) return true;
  return bindings.elements.length === 0 || !bindings.elements.every((e) => e.isTypeOnly);
}

/** Module → modules it imports at run time, for every module of the engine. */
function runtimeImports(files: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const tree = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
    const targets: string[] = [];
    for (const statement of tree.statements) {
      if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
      const specifier = statement.moduleSpecifier;
      if (!specifier || !ts.isStringLiteral(specifier) || !isRuntime(statement)) continue;
      const target = resolveImport(file, specifier.text);
      if (target) targets.push(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** One cycle per strongly connected group of modules (a path that returns to its start). */
function findCycles(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      const seen = state.get(next);
      if (seen === 'open') cycles.push([...path.slice(path.indexOf(next)), next]);
      else if (seen === undefined) visit(next);
    }
    path.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return cycles;
}

describe('the engine import graph', () => {
  it('finds a cycle when there is one', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(findCycles(graph)).toEqual([['a', 'b', 'c', 'a']]);
  });

  it('has no cycle among run-time imports', () => {
    const graph = runtimeImports(sources(ENGINE));
    expect(graph.size).toBeGreaterThan(100);
    const named = findCycles(graph).map((cycle) =>
      cycle.map((file) => relative(ENGINE, file)).join(' → '),
    );
    expect(named).toEqual([]);
  });
});
