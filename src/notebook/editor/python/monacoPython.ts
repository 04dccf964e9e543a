/**
 * Completions and hovers for Python cells in Monaco: after `tf.`, `torch.nn.`, `F.` (any import
 * alias the notebook's cells set up) the names the Python faces really have, with their Python
 * signatures; hovering a known dotted name shows its signature and docstring. Names come from
 * python-api.ts; nothing here knows the API itself.
 */
import type * as Monaco from 'monaco-editor/editor';
import {
  describe,
  dottedAt,
  hoverText,
  importAliases,
  memberContext,
  namesAfter,
  type PythonNameKind,
} from './python-api';

type MonacoApi = typeof Monaco;

function completionKind(
  monaco: MonacoApi,
  kind: PythonNameKind,
): Monaco.languages.CompletionItemKind {
  const kinds = monaco.languages.CompletionItemKind;
  return {
    module: kinds.Module,
    class: kinds.Class,
    function: kinds.Function,
    constant: kinds.Constant,
  }[kind];
}

/**
 * Registers the providers once; `notebookSources` gives the open notebook's code cells (whose
 * imports set the aliases; the edited cell's own text is read from its model).
 */
export function registerPythonFeatures(
  monaco: MonacoApi,
  notebookSources: () => readonly string[],
): void {
  const aliases = (model: Monaco.editor.ITextModel) =>
    importAliases([...notebookSources(), model.getValue()]);

  monaco.languages.registerCompletionItemProvider('python', {
    triggerCharacters: ['.'],
    provideCompletionItems(model, position) {
      const before = model.getValueInRange({
        startLineNumber: position.lineNumber,
        startColumn: 1,
        endLineNumber: position.lineNumber,
        endColumn: position.column,
      });
      const context = memberContext(before);
      const names = context && namesAfter(context.namespace, aliases(model));
      if (!context || !names) return { suggestions: [] };
      const range = {
        startLineNumber: position.lineNumber,
        startColumn: position.column - context.prefix.length,
        endLineNumber: position.lineNumber,
        endColumn: position.column,
      };
      return {
        suggestions: names.map((name) => ({
          label: name.name,
          kind: completionKind(monaco, name.kind),
          detail: name.signature === null ? name.kind : `${name.name}${name.signature}`,
          documentation: name.doc ?? undefined,
          insertText: name.name,
          range,
        })),
      };
    },
  });

  monaco.languages.registerHoverProvider('python', {
    provideHover(model, position) {
      const line = model.getLineContent(position.lineNumber);
      const at = dottedAt(line, position.column - 1);
      const name = at && describe(at.text, aliases(model));
      if (!at || !name) return null;
      return {
        range: {
          startLineNumber: position.lineNumber,
          startColumn: at.start + 1,
          endLineNumber: position.lineNumber,
          endColumn: at.end + 1,
        },
        contents: hoverText(name).map((value) => ({ value })),
      };
    },
  });
}
