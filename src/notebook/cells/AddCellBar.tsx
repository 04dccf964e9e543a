/** The bar after the last cell: always there, so an empty notebook can get its first cell. */
import { useAppStoreApi } from '../store/context';
import { insertCellNextTo } from '../store/commands';
import { AddCellButtons } from './AddCellButtons';

export function AddCellBar() {
  const store = useAppStoreApi();
  return (
    <div className="add-cell-bar" data-testid="add-cell-bar">
      <AddCellButtons
        where="at the end"
        onAdd={(type) => insertCellNextTo(store, null, 'below', type)}
      />
    </div>
  );
}
