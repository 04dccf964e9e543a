/**
 * The open notebook (`notebook`): the kernel notice, the cells in order and the add-cell bar.
 * It also keeps the editor told which names the cells declare (see crossCellDeclarations.ts).
 */
import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { preloadMonaco, setNotebookSources } from '../editor/monacoBridge';
import { useAppStore } from '../store/context';
import { AddCellBar } from './AddCellBar';
import { CellView } from './CellView';
import { KernelNotice } from './KernelNotice';
import './notebook.css';

export function NotebookView() {
  const notebookId = useAppStore((s) => s.notebook?.id ?? null);
  const cellIds = useAppStore(useShallow((s) => s.notebook?.cells.map((c) => c.id) ?? []));
  const codeSources = useAppStore(
    useShallow(
      (s) => s.notebook?.cells.filter((c) => c.type === 'code').map((c) => c.source) ?? [],
    ),
  );

  useEffect(() => preloadMonaco(), []);

  // Typing changes sources constantly; the declarations only need to catch up after a pause.
  useEffect(() => {
    const timer = setTimeout(() => setNotebookSources(codeSources), 400);
    return () => clearTimeout(timer);
  }, [codeSources]);

  if (!notebookId) return null;
  return (
    <main className="notebook" data-testid="notebook" data-notebook-id={notebookId}>
      <KernelNotice />
      <div className="cells">
        {cellIds.map((id) => (
          <CellView key={id} cellId={id} />
        ))}
      </div>
      <AddCellBar />
    </main>
  );
}
