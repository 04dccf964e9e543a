/**
 * One cell's Monaco editor (loaded lazily, see monacoBridge.ts): as tall as its content, no
 * minimap, small line numbers, the notebook's run shortcuts taken before Monaco sees them.
 */
import { Editor, type OnMount } from '@monaco-editor/react';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { matchShortcut, type ShortcutId } from '../shortcuts';
import type { CellLanguage } from './monacoBridge';
import { THEME, type monaco } from './monacoSetup';

export const LINE_HEIGHT = 20;
export const PADDING = 8;

const OPTIONS: monaco.editor.IStandaloneEditorConstructionOptions = {
  minimap: { enabled: false },
  lineNumbers: 'on',
  lineNumbersMinChars: 3,
  lineDecorationsWidth: 8,
  glyphMargin: false,
  folding: false,
  fontSize: 13,
  lineHeight: LINE_HEIGHT,
  fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
  padding: { top: PADDING, bottom: PADDING },
  scrollBeyondLastLine: false,
  // The page scrolls, not the cell: the wheel goes through to it.
  scrollbar: {
    vertical: 'hidden',
    horizontal: 'auto',
    alwaysConsumeMouseWheel: false,
    verticalScrollbarSize: 0,
    horizontalScrollbarSize: 8,
  },
  overviewRulerLanes: 0,
  overviewRulerBorder: false,
  hideCursorInOverviewRuler: true,
  renderLineHighlight: 'none',
  stickyScroll: { enabled: false },
  // Suggestions and hovers may leave the cell's box instead of being clipped by it.
  fixedOverflowWidgets: true,
  automaticLayout: true,
  tabSize: 2,
  wordWrap: 'off',
  ariaLabel: 'Cell source',
};

/** Python cells indent by four spaces (PEP 8, and what Jupyter and Colab do). */
const PYTHON_OPTIONS: typeof OPTIONS = { ...OPTIONS, tabSize: 4 };

export interface EditorHandle {
  /**
   * Gives the editor keyboard focus with the cursor at `offset` (characters) or at the end, or
   * with the text from `offset` to `selectionEnd` selected.
   */
  focus(offset?: number | 'end', selectionEnd?: number): void;
}

export interface MonacoCellEditorProps {
  uri: string;
  language: CellLanguage;
  source: string;
  onChange(source: string): void;
  onShortcut(id: ShortcutId): void;
  onReady(handle: EditorHandle): void;
  /** The editor was unmounted (the <pre> must show again). */
  onGone(): void;
  onFocusChange(focused: boolean): void;
}

export default function MonacoCellEditor(props: MonacoCellEditorProps) {
  const [height, setHeight] = useState(LINE_HEIGHT + 2 * PADDING);
  // Monaco's listeners are registered once; they read the current props through this ref.
  const latest = useRef(props);
  useLayoutEffect(() => {
    latest.current = props;
  });
  useEffect(() => {
    const { onGone } = latest.current;
    return () => onGone();
  }, []);

  const handleChange = useCallback((value: string | undefined) => {
    latest.current.onChange(value ?? '');
  }, []);

  const handleMount = useCallback<OnMount>((editor) => {
    const model = editor.getModel();
    // A kept model may be older than the cell (the source changed while it was off screen).
    if (model && model.getValue() !== latest.current.source) model.setValue(latest.current.source);

    const fit = () => setHeight(Math.max(editor.getContentHeight(), LINE_HEIGHT + 2 * PADDING));
    editor.onDidContentSizeChange((event) => {
      if (event.contentHeightChanged) fit();
    });
    fit();

    editor.onKeyDown((event) => {
      const id = matchShortcut(event.browserEvent, 'editor');
      if (!id) return;
      event.preventDefault();
      event.stopPropagation();
      // A completion list left open would float over the outputs.
      editor.trigger('shortcut', 'hideSuggestWidget', null);
      latest.current.onShortcut(id);
    });
    editor.onDidFocusEditorWidget(() => latest.current.onFocusChange(true));
    editor.onDidBlurEditorWidget(() => latest.current.onFocusChange(false));

    latest.current.onReady({
      focus(offset, selectionEnd) {
        editor.focus();
        const current = editor.getModel();
        if (!current || offset === undefined) return;
        const at = offset === 'end' ? current.getValueLength() : offset;
        const start = current.getPositionAt(at);
        const end = current.getPositionAt(selectionEnd ?? at);
        editor.setSelection({
          startLineNumber: start.lineNumber,
          startColumn: start.column,
          endLineNumber: end.lineNumber,
          endColumn: end.column,
        });
        editor.revealPositionInCenterIfOutsideViewport(end);
      },
    });
  }, []);

  return (
    <Editor
      height={height}
      path={props.uri}
      language={props.language}
      value={props.source}
      theme={THEME}
      options={props.language === 'python' ? PYTHON_OPTIONS : OPTIONS}
      keepCurrentModel
      saveViewState={false}
      loading={null}
      onChange={handleChange}
      onMount={handleMount}
    />
  );
}
