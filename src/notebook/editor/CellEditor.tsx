/**
 * A cell's editor (`cell-editor`). Monaco is mounted only for cells on (or near) the screen and
 * for the focused one; any other cell shows its source in a light read-only `<pre>`.
 *
 * Clicking the `<pre>` (or a request to focus the cell) must give keyboard focus at once, even
 * while Monaco is still loading or mounting: a plain textarea takes the caret and the keystrokes
 * meanwhile (they edit the source like any edit would), and hands caret and focus to Monaco as
 * soon as it is ready. No keystroke typed right after a click is lost.
 */
import {
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent as ReactKeyboardEvent,
  type MouseEvent as ReactMouseEvent,
} from 'react';
import { matchShortcut, type ShortcutId } from '../shortcuts';
import {
  cellModelUri,
  disposeCellModel,
  loadMonacoCellEditor,
  type CellLanguage,
} from './monacoBridge';
import type { EditorHandle } from './MonacoCellEditor';
import { useStaggered } from './mountScheduler';
import { useInView } from './useInView';

const MonacoCellEditor = lazy(loadMonacoCellEditor);

export interface CellEditorProps {
  notebookId: string;
  cellId: string;
  language: CellLanguage;
  source: string;
  onChange(source: string): void;
  onShortcut(id: ShortcutId): void;
  /** The sequence number of a pending request to focus this editor, or null. */
  focusRequest: number | null;
  onFocusRequestHandled(seq: number): void;
  onFocusChange?(focused: boolean): void;
}

type Caret = number | 'end';

export function CellEditor(props: CellEditorProps) {
  const { notebookId, cellId, language, source, onChange, onShortcut, onFocusChange } = props;
  const rootRef = useRef<HTMLDivElement>(null);
  const captureRef = useRef<HTMLTextAreaElement>(null);
  const handleRef = useRef<EditorHandle | null>(null);
  const inView = useStaggered(useInView(rootRef));
  /** True while the textarea stands in for Monaco; `startCaret` says where its caret starts. */
  const [activated, setActivated] = useState(false);
  const startCaret = useRef<Caret>('end');
  const [focused, setFocused] = useState(false);
  const [ready, setReady] = useState(false);
  const uri = cellModelUri(notebookId, cellId, language);
  const mountMonaco = inView || activated || focused;

  const changeFocus = useCallback(
    (value: boolean) => {
      setFocused(value);
      onFocusChange?.(value);
    },
    [onFocusChange],
  );

  // The model outlives scrolling (undo history); it goes with the cell, or a change of type.
  useEffect(() => () => disposeCellModel(uri), [uri]);

  const activate = useCallback((caret: Caret) => {
    startCaret.current = caret;
    setActivated(true);
  }, []);

  const { focusRequest, onFocusRequestHandled } = props;
  useLayoutEffect(() => {
    if (focusRequest === null) return;
    if (handleRef.current) handleRef.current.focus();
    else activate('end');
    onFocusRequestHandled(focusRequest);
  }, [focusRequest, onFocusRequestHandled, activate]);

  // The stand-in textarea appears: focus it with the caret where the user clicked. Later caret
  // moves belong to the user, so this runs only when it appears.
  const capturing = activated && !ready;
  useLayoutEffect(() => {
    const textarea = captureRef.current;
    if (!capturing || !textarea) return;
    textarea.focus();
    const caret = startCaret.current;
    const at = caret === 'end' ? textarea.value.length : Math.min(caret, textarea.value.length);
    textarea.setSelectionRange(at, at);
  }, [capturing]);

  const handleReady = useCallback((handle: EditorHandle) => {
    handleRef.current = handle;
    const textarea = captureRef.current;
    // Hand over only if the user is still in this cell; never steal focus from elsewhere.
    if (textarea && document.activeElement === textarea) {
      // Caret and selection go along: a "select all" made in the textarea must still hold.
      handle.focus(textarea.selectionStart, textarea.selectionEnd);
    }
    setActivated(false);
    setReady(true);
  }, []);

  // Monaco went away (scrolled off while not focused): the <pre> shows again.
  const handleGone = useCallback(() => {
    handleRef.current = null;
    setReady(false);
  }, []);

  const activateAt = (event: ReactMouseEvent<HTMLElement>) => {
    if (event.button !== 0) return;
    event.preventDefault();
    const code = rootRef.current?.querySelector<HTMLElement>('.cell-editor-code');
    activate(code ? caretOffsetAt(code, event.clientX, event.clientY) : 'end');
  };

  const handleCaptureKey = (event: ReactKeyboardEvent<HTMLTextAreaElement>) => {
    const id = matchShortcut(event.nativeEvent, 'editor');
    if (id) {
      event.preventDefault();
      onShortcut(id);
    } else if (event.key === 'Tab' && !event.shiftKey) {
      event.preventDefault();
      const textarea = event.currentTarget;
      textarea.setRangeText('  ', textarea.selectionStart, textarea.selectionEnd, 'end');
      onChange(textarea.value);
    }
  };

  const lineCount = source.split('\n').length;
  return (
    <div
      ref={rootRef}
      className="cell-editor"
      data-testid="cell-editor"
      data-mode={ready ? 'monaco' : capturing ? 'capture' : 'static'}
    >
      {!ready && (
        <div className="cell-editor-static" onMouseDown={capturing ? undefined : activateAt}>
          <pre className="cell-editor-gutter" aria-hidden="true">
            {Array.from({ length: lineCount }, (_, i) => i + 1).join('\n')}
          </pre>
          {capturing ? (
            <textarea
              ref={captureRef}
              className="cell-editor-code cell-editor-capture"
              value={source}
              rows={lineCount}
              spellCheck={false}
              autoCapitalize="off"
              autoComplete="off"
              wrap="off"
              aria-label="Cell source"
              onChange={(event) => onChange(event.target.value)}
              onKeyDown={handleCaptureKey}
              onFocus={() => changeFocus(true)}
              onBlur={() => changeFocus(false)}
            />
          ) : (
            <pre className="cell-editor-code">{source}</pre>
          )}
        </div>
      )}
      {mountMonaco && (
        <div className={ready ? 'cell-editor-monaco' : 'cell-editor-monaco is-loading'}>
          <Suspense fallback={null}>
            <MonacoCellEditor
              uri={uri}
              language={language}
              source={source}
              onChange={onChange}
              onShortcut={onShortcut}
              onReady={handleReady}
              onGone={handleGone}
              onFocusChange={changeFocus}
            />
          </Suspense>
        </div>
      )}
    </div>
  );
}

/** The character offset in `element`'s text under the point, or the end if none is. */
function caretOffsetAt(element: HTMLElement, x: number, y: number): Caret {
  const doc = document as Document & {
    caretPositionFromPoint?(x: number, y: number): { offsetNode: Node; offset: number } | null;
  };
  const position = doc.caretPositionFromPoint?.(x, y);
  if (!position || !element.contains(position.offsetNode)) return 'end';
  let offset = 0;
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node === position.offsetNode) return offset + position.offset;
    offset += node.textContent?.length ?? 0;
  }
  return 'end';
}
