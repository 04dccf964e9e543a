/** "+ Code" / "+ Text" buttons (`add-code-cell`, `add-markdown-cell`) inserting at one place. */
import { CodeIcon, TextIcon } from '../ui/icons';
import type { CellType } from '../model';

export function AddCellButtons({
  onAdd,
  where,
}: {
  onAdd(type: CellType): void;
  /** For the buttons' accessible names, e.g. "below this cell". */
  where: string;
}) {
  return (
    <>
      <button
        type="button"
        className="add-cell-button"
        data-testid="add-code-cell"
        title={`Add a code cell ${where}`}
        onClick={() => onAdd('code')}
      >
        <CodeIcon /> Code
      </button>
      <button
        type="button"
        className="add-cell-button"
        data-testid="add-markdown-cell"
        title={`Add a text (markdown) cell ${where}`}
        onClick={() => onAdd('markdown')}
      >
        <TextIcon /> Text
      </button>
    </>
  );
}
