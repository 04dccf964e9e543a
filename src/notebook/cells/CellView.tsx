/**
 * One cell (`cell`): run button and execution count in the gutter, the editor or rendered
 * markdown, its outputs, its toolbar, and "+ Code / + Text" to insert below. Every control of a
 * cell lives inside the cell's element, so tests can address them through the cell.
 *
 * Outside its editor a selected cell takes the notebook's shortcuts ("command mode"): Shift+Enter
 * and friends run it, Enter edits it.
 */
import { memo, useCallback, useEffect, useRef, type KeyboardEvent } from 'react';
import { CellEditor } from '../editor/CellEditor';
import { MarkdownView } from '../markdown/MarkdownView';
import { notebookLanguage } from '../model';
import { OutputArea } from '../outputs/OutputArea';
import { matchShortcut, SHORTCUTS, type Shortcut, type ShortcutId } from '../shortcuts';
import { insertCellNextTo } from '../store/commands';
import { useAppStore, useAppStoreApi } from '../store/context';
import { PlayIcon, Spinner } from '../ui/icons';
import { AddCellButtons } from './AddCellButtons';
import { CellToolbar } from './CellToolbar';

type Position = 'only' | 'first' | 'middle' | 'last';

export const CellView = memo(function CellView({ cellId }: { cellId: string }) {
  const store = useAppStoreApi();
  const cell = useAppStore((s) => s.notebook?.cells.find((c) => c.id === cellId));
  const notebookId = useAppStore((s) => s.notebook?.id ?? '');
  const codeLanguage = useAppStore((s) =>
    s.notebook ? notebookLanguage(s.notebook) : 'typescript',
  );
  const position = useAppStore((s): Position => {
    const cells = s.notebook?.cells ?? [];
    const index = cells.findIndex((c) => c.id === cellId);
    if (cells.length === 1) return 'only';
    return index === 0 ? 'first' : index === cells.length - 1 ? 'last' : 'middle';
  });
  const active = useAppStore((s) => s.activeCellId === cellId);
  const focusRequest = useAppStore((s) =>
    s.focusRequest?.cellId === cellId ? s.focusRequest.seq : null,
  );
  const editingMarkdown = useAppStore((s) => Boolean(s.markdownEditing[cellId]));
  const rootRef = useRef<HTMLDivElement>(null);

  const setSource = useCallback(
    (source: string) => store.getState().setCellSource(cellId, source),
    [store, cellId],
  );
  const runShortcut = useCallback(
    (id: ShortcutId) => {
      const shortcut: Shortcut = SHORTCUTS[id];
      shortcut.run?.(store, cellId);
    },
    [store, cellId],
  );
  const consumeFocusRequest = useCallback(
    (seq: number) => store.getState().consumeFocusRequest(seq),
    [store],
  );
  const onEditorFocus = useCallback(
    (focused: boolean) => {
      if (focused) store.getState().setActiveCell(cellId);
    },
    [store, cellId],
  );

  const isMarkdown = cell?.type === 'markdown';
  const showEditor = !isMarkdown || editingMarkdown;

  // A rendered markdown cell has no editor to focus: the cell itself takes focus.
  useEffect(() => {
    if (focusRequest === null || showEditor) return;
    rootRef.current?.focus();
    store.getState().consumeFocusRequest(focusRequest);
  }, [focusRequest, showEditor, store]);

  if (!cell) return null;

  const editMarkdown = () => {
    const state = store.getState();
    state.setMarkdownEditing(cellId, true);
    state.focusCell(cellId);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget) return; // keys inside the editor are its own
    const id = matchShortcut(event.nativeEvent, 'cell');
    if (!id) return;
    event.preventDefault();
    if (id === 'editCell') {
      if (isMarkdown) editMarkdown();
      else store.getState().focusCell(cellId);
    } else {
      runShortcut(id);
    }
  };

  const busy = cell.status === 'queued' || cell.status === 'running';
  const count = busy ? '*' : (cell.executionCount ?? ' ');
  const label = isMarkdown ? 'Text cell' : 'Code cell';

  return (
    <div
      ref={rootRef}
      className={`cell cell-${cell.type}${active ? ' is-active' : ''}`}
      data-testid="cell"
      data-cell-id={cell.id}
      data-cell-type={cell.type}
      data-status={cell.status}
      data-execution-count={cell.executionCount ?? ''}
      tabIndex={-1}
      aria-label={label}
      onMouseDownCapture={() => store.getState().setActiveCell(cellId)}
      onKeyDown={onKeyDown}
    >
      <div className="cell-gutter">
        <button
          type="button"
          className={`run-button${busy ? ' is-busy' : ''}`}
          data-testid="run-cell"
          title={`Run cell (${SHORTCUTS.runInPlace.label})`}
          aria-label={isMarkdown ? 'Render cell' : 'Run cell'}
          onClick={() => store.getState().runCell(cellId)}
        >
          {busy ? <Spinner /> : <PlayIcon />}
        </button>
        {!isMarkdown && (
          <div className="execution-count" aria-label="Execution count">
            [{count}]
          </div>
        )}
      </div>
      <div className="cell-main">
        <CellToolbar
          cellId={cellId}
          type={cell.type}
          isFirst={position === 'first' || position === 'only'}
          isLast={position === 'last' || position === 'only'}
          hasOutputs={cell.outputs.length > 0 || cell.executionCount !== null}
        />
        {showEditor ? (
          <CellEditor
            notebookId={notebookId}
            cellId={cellId}
            language={isMarkdown ? 'markdown' : codeLanguage}
            source={cell.source}
            onChange={setSource}
            onShortcut={runShortcut}
            focusRequest={focusRequest}
            onFocusRequestHandled={consumeFocusRequest}
            onFocusChange={onEditorFocus}
          />
        ) : (
          <div className="markdown-rendered" onDoubleClick={editMarkdown}>
            <MarkdownView source={cell.source} />
          </div>
        )}
        {!isMarkdown && <OutputArea outputs={cell.outputs} />}
      </div>
      <div className="cell-insert-below">
        <AddCellButtons
          where="below this cell"
          onAdd={(type) => insertCellNextTo(store, cellId, 'below', type)}
        />
      </div>
    </div>
  );
});
