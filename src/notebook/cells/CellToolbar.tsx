/** A cell's own actions: move, change type, insert above, run all above, clear, delete. */
import type { ReactNode } from 'react';
import { useAppStoreApi } from '../store/context';
import { deleteCellAndSelectNeighbour, insertCellNextTo } from '../store/commands';
import type { CellType } from '../model';
import {
  ArrowDownIcon,
  ArrowUpIcon,
  ClearIcon,
  CodeIcon,
  InsertAboveIcon,
  RunAboveIcon,
  TextIcon,
  TrashIcon,
} from '../ui/icons';

export interface CellToolbarProps {
  cellId: string;
  type: CellType;
  isFirst: boolean;
  isLast: boolean;
  hasOutputs: boolean;
}

export function CellToolbar({ cellId, type, isFirst, isLast, hasOutputs }: CellToolbarProps) {
  const store = useAppStoreApi();
  const state = () => store.getState();
  const otherType: CellType = type === 'code' ? 'markdown' : 'code';
  return (
    <div className="cell-toolbar" role="toolbar" aria-label="Cell actions">
      <ToolbarButton
        testId="move-cell-up"
        label="Move cell up"
        disabled={isFirst}
        onClick={() => state().moveCellBy(cellId, -1)}
      >
        <ArrowUpIcon />
      </ToolbarButton>
      <ToolbarButton
        testId="move-cell-down"
        label="Move cell down"
        disabled={isLast}
        onClick={() => state().moveCellBy(cellId, 1)}
      >
        <ArrowDownIcon />
      </ToolbarButton>
      <ToolbarButton
        testId="change-cell-type"
        label={type === 'code' ? 'Change to a text (markdown) cell' : 'Change to a code cell'}
        onClick={() => {
          state().setCellType(cellId, otherType);
          state().setMarkdownEditing(cellId, otherType === 'markdown');
        }}
      >
        {type === 'code' ? <TextIcon /> : <CodeIcon />}
      </ToolbarButton>
      <ToolbarButton
        testId="insert-cell-above"
        label="Insert a code cell above"
        onClick={() => insertCellNextTo(store, cellId, 'above', 'code')}
      >
        <InsertAboveIcon />
      </ToolbarButton>
      <ToolbarButton
        testId="run-all-above"
        label="Run all cells above"
        disabled={isFirst}
        onClick={() => state().runAllAbove(cellId)}
      >
        <RunAboveIcon />
      </ToolbarButton>
      {type === 'code' && (
        <ToolbarButton
          testId="clear-outputs"
          label="Clear outputs"
          disabled={!hasOutputs}
          onClick={() => state().clearOutputs(cellId)}
        >
          <ClearIcon />
        </ToolbarButton>
      )}
      <ToolbarButton
        testId="delete-cell"
        label="Delete cell"
        onClick={() => deleteCellAndSelectNeighbour(store, cellId)}
      >
        <TrashIcon />
      </ToolbarButton>
    </div>
  );
}

function ToolbarButton(props: {
  testId: string;
  label: string;
  disabled?: boolean;
  onClick(): void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className="icon-button"
      data-testid={props.testId}
      title={props.label}
      aria-label={props.label}
      disabled={props.disabled}
      onClick={(event) => {
        event.stopPropagation();
        props.onClick();
      }}
    >
      {props.children}
    </button>
  );
}
