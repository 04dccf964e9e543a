/** The notebook's notice when a GPU device was lost: which device, which cell, and what to do. */
import type { DeviceLostEvent } from '../../kernel/protocol';
import type { Notebook } from '../../notebook/model';
import type { KernelNotice } from '../../notebook/store/types';

export function deviceLostNotice(event: DeviceLostEvent, notebook: Notebook | null): KernelNotice {
  const cell = event.cellId ? notebook?.cells.find((c) => c.id === event.cellId) : undefined;
  const where = cell
    ? ` while cell [${cell.executionCount ?? ' '}] ran`
    : event.cellId
      ? ' while a cell ran'
      : '';
  return {
    reason: 'device-lost',
    message: `GPU ${event.device} was lost${where}`,
    detail:
      `${event.reason}. The kernel recreated ${event.recovered.join(', ') || event.device} without ` +
      `a reload; tensors and models that lived on it are gone, so run the cells that made them again.`,
  };
}
