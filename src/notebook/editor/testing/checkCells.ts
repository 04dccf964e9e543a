/**
 * Test helper: type-checks notebook cells the way the editor does — the given ambient `.d.ts`
 * texts as libraries, each cell its own module, the editor's compiler options and ignored codes.
 */
import fs from 'node:fs';
import ts from 'typescript';
import { CELL_COMPILER_OPTIONS, IGNORED_CELL_DIAGNOSTICS } from '../cellCompilerOptions';

export interface CellProblem {
  cell: number;
  code: number;
  text: string;
}

export function checkCells(libs: readonly string[], cells: readonly string[]): CellProblem[] {
  const files = new Map<string, string>();
  libs.forEach((text, i) => files.set(`/lib-${i}.d.ts`, text));
  cells.forEach((source, i) => files.set(`/cell-${i}.ts`, source));
  const options: ts.CompilerOptions = {
    ...(CELL_COMPILER_OPTIONS as unknown as ts.CompilerOptions),
    lib: ['lib.esnext.d.ts', 'lib.webworker.d.ts'],
    types: [],
    noResolve: true,
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.fileExists = (name) => files.has(name) || fs.existsSync(name);
  host.readFile = (name) => files.get(name) ?? fs.readFileSync(name, 'utf8');
  host.getSourceFile = (name, version, onError, create) => {
    const text = files.get(name);
    return text === undefined
      ? getSourceFile(name, version, onError, create)
      : ts.createSourceFile(name, text, version);
  };
  const program = ts.createProgram({ rootNames: [...files.keys()], options, host });
  const ignored = new Set<number>(IGNORED_CELL_DIAGNOSTICS);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => !ignored.has(d.code) && /^\/cell-\d+\.ts$/.test(d.file?.fileName ?? ''))
    .map((d) => ({
      cell: Number(/cell-(\d+)/.exec(d.file?.fileName ?? '')?.[1]),
      code: d.code,
      text: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
    }));
}
