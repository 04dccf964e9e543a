/**
 * Classroom mode: the open notebook one section at a time, in large type, with its editors still
 * live. ArrowRight/PageDown and ArrowLeft/PageUp step between sections, Escape leaves the mode;
 * keys typed inside an editor or a field stay theirs.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { CellView } from '../../notebook/cells/CellView';
import { KernelNotice } from '../../notebook/cells/KernelNotice';
import { useAppStore, useAppStoreApi } from '../../notebook/store/context';
import { leavePresentation } from './presentMode';
import { sectionOf, splitSections } from './sections';
import '../../notebook/cells/notebook.css';
import './presentation.css';

/** True when a key event belongs to something that edits text or is a dialog of its own. */
function ownsKeys(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  if (target instanceof HTMLElement && target.isContentEditable) return true;
  return Boolean(
    target.closest('input, textarea, select, .monaco-editor, [role="dialog"], dialog'),
  );
}

export function PresentationView() {
  const store = useAppStoreApi();
  const notebookId = useAppStore((s) => s.notebook?.id ?? null);
  const cells = useAppStore((s) => s.notebook?.cells);
  const sections = useMemo(() => splitSections(cells ?? []), [cells]);
  // Start where the user was working, so entering the mode does not lose their place.
  const [wanted, setWanted] = useState(() =>
    Math.max(0, sectionOf(sections, store.getState().activeCellId)),
  );
  // Cells can be deleted while presenting: never point past the last section.
  const index = Math.min(wanted, Math.max(0, sections.length - 1));
  const rootRef = useRef<HTMLElement>(null);

  useEffect(() => {
    rootRef.current?.focus({ preventScroll: true });
  }, []);

  useEffect(() => {
    window.scrollTo({ top: 0 });
  }, [index]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      if (event.shiftKey || ownsKeys(event.target)) return;
      const last = Math.max(0, sections.length - 1);
      if (event.key === 'ArrowRight' || event.key === 'PageDown') {
        setWanted(Math.min(index + 1, last));
      } else if (event.key === 'ArrowLeft' || event.key === 'PageUp') {
        setWanted(Math.max(index - 1, 0));
      } else if (event.key === 'Escape') {
        leavePresentation();
      } else {
        return;
      }
      event.preventDefault();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [index, sections.length]);

  if (!notebookId) return null;
  const ids = sections[index] ?? [];
  return (
    <main
      ref={rootRef}
      className="presentation"
      data-testid="presentation"
      data-notebook-id={notebookId}
      data-section={index}
      data-sections={sections.length}
      tabIndex={-1}
      aria-label="Presentation"
    >
      <KernelNotice />
      <div className="cells presentation-cells">
        {ids.length === 0 && <p className="muted">This notebook has no cells yet.</p>}
        {ids.map((id) => (
          <CellView key={id} cellId={id} />
        ))}
      </div>
      <nav className="presentation-nav" aria-label="Sections">
        <button
          type="button"
          className="button"
          data-testid="presentation-prev"
          disabled={index === 0}
          onClick={() => setWanted(index - 1)}
        >
          ← Previous
        </button>
        <span className="presentation-position" aria-live="polite">
          Section {sections.length === 0 ? 0 : index + 1} of {sections.length}
        </span>
        <button
          type="button"
          className="button"
          data-testid="presentation-next"
          disabled={index >= sections.length - 1}
          onClick={() => setWanted(index + 1)}
        >
          Next →
        </button>
        <button
          type="button"
          className="button button-quiet"
          data-testid="presentation-exit"
          onClick={leavePresentation}
        >
          Exit (Esc)
        </button>
      </nav>
    </main>
  );
}
