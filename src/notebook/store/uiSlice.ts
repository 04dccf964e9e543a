/** View state that is not part of the document: selection, focus requests, markdown edit mode. */
import type { SliceCreator, UiSlice } from './types';

export const createUiSlice: SliceCreator<UiSlice> = (set, get) => {
  let focusSeq = 0;
  return {
    activeCellId: null,
    focusRequest: null,
    markdownEditing: {},

    setActiveCell: (cellId) => {
      if (get().activeCellId !== cellId) set({ activeCellId: cellId });
    },
    focusCell: (cellId) => set({ activeCellId: cellId, focusRequest: { cellId, seq: ++focusSeq } }),
    consumeFocusRequest: (seq) => {
      if (get().focusRequest?.seq === seq) set({ focusRequest: null });
    },
    setMarkdownEditing: (cellId, editing) =>
      set((state) => {
        if (Boolean(state.markdownEditing[cellId]) === editing) return {};
        const markdownEditing = { ...state.markdownEditing };
        if (editing) markdownEditing[cellId] = true;
        else delete markdownEditing[cellId];
        return { markdownEditing };
      }),
  };
};
