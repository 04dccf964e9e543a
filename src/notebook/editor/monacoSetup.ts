/**
 * Monaco, bundled (never from a CDN): the slim editor entry with its features, TypeScript, Python
 * and markdown highlighting, the TypeScript language service configured for cells, workers through
 * Vite's `?worker`, the cell API declarations, and the page's light theme.
 */
import { loader } from '@monaco-editor/react';
import * as monaco from 'monaco-editor/editor';
import 'monaco-editor/features/register.all';
import 'monaco-editor/languages/definitions/markdown/register';
// Highlighting (Monarch), plus completions and hovers for the Python faces (python/monacoPython.ts).
import 'monaco-editor/languages/definitions/python/register';
import 'monaco-editor/languages/definitions/typescript/register';
import {
  typescriptDefaults,
  type CompilerOptions,
} from 'monaco-editor/languages/features/typescript/register';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import TypeScriptWorker from 'monaco-editor/languages/features/typescript/ts.worker?worker';
import cellApiDts, { cellGlobals } from 'virtual:cell-api-dts';
import { CELL_COMPILER_OPTIONS, IGNORED_CELL_DIAGNOSTICS } from './cellCompilerOptions';
import { crossCellDeclarations } from './crossCellDeclarations';
import { connectMonaco } from './monacoBridge';
import { registerPythonFeatures } from './python/monacoPython';

globalThis.MonacoEnvironment = {
  getWorker(_workerId: string, label: string): Worker {
    return label === 'typescript' || label === 'javascript'
      ? new TypeScriptWorker({ name: 'monaco-typescript' })
      : new EditorWorker({ name: 'monaco-editor' });
  },
};

loader.config({ monaco });

typescriptDefaults.setCompilerOptions({
  ...CELL_COMPILER_OPTIONS,
  lib: [...CELL_COMPILER_OPTIONS.lib],
} as CompilerOptions);
typescriptDefaults.setDiagnosticsOptions({
  noSemanticValidation: false,
  noSyntaxValidation: false,
  diagnosticCodesToIgnore: [...IGNORED_CELL_DIAGNOSTICS],
});
// Models of cells that are not on screen still count (their names are seen by other cells).
typescriptDefaults.setEagerModelSync(true);
typescriptDefaults.addExtraLib(cellApiDts, 'file:///gpubook/cell-api.d.ts');

const reservedNames = new Set(cellGlobals);
const NOTEBOOK_LIB = 'file:///gpubook/notebook-cells.d.ts';
let notebookLibText = '';
let notebookSources: readonly string[] = [];

// Python cells: the Python faces' names after `tf.`, `torch.nn.`, … and their signatures on hover.
registerPythonFeatures(monaco, () => notebookSources);

export const THEME = 'gpubook-light';

monaco.editor.defineTheme(THEME, {
  base: 'vs',
  inherit: true,
  rules: [],
  colors: {
    'editor.background': '#f7f8fa',
    'editorGutter.background': '#f7f8fa',
    'editorLineNumber.foreground': '#a2a9b3',
    'editorLineNumber.activeForeground': '#5f6b7a',
    'editor.lineHighlightBackground': '#00000000',
    'editor.lineHighlightBorder': '#00000000',
    'editorCursor.foreground': '#1a73e8',
  },
});

connectMonaco({
  disposeModel(uri) {
    // Later, so an editor still showing the model lets go of it first.
    setTimeout(() => {
      const model = monaco.editor.getModel(monaco.Uri.parse(uri));
      if (!model) return;
      if (monaco.editor.getEditors().some((e) => e.getModel() === model)) return;
      model.dispose();
    }, 0);
  },
  setNotebookSources(sources) {
    notebookSources = sources;
    const text = crossCellDeclarations(sources, reservedNames);
    if (text === notebookLibText) return;
    notebookLibText = text;
    typescriptDefaults.addExtraLib(text, NOTEBOOK_LIB);
  },
});

export { monaco };
