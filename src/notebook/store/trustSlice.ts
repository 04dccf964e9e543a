/**
 * The open notebook's trust (see ../trust.ts): run actions on an untrusted notebook do not reach
 * the kernel; they wait as a trust request until the user confirms (then they run) or cancels.
 * Opening a notebook resets trust to "untrusted" unless the opener says otherwise, so forgetting
 * to pass it fails safe.
 */
import type { TrustRequest } from '../trust';
import type { SliceCreator, TrustSlice } from './types';

export const createTrustSlice: SliceCreator<TrustSlice> = (set, get) => {
  /** The action waiting for trust; kept out of the state since it is a function. */
  let pending: (() => void) | null = null;

  return {
    trusted: false,
    trustRequest: null,

    setTrusted: (trusted) => set({ trusted }),
    whenTrusted: (request, run) => {
      if (get().trusted) {
        run();
        return;
      }
      pending = run;
      set({ trustRequest: request });
    },
    confirmTrust: () => {
      const run = pending;
      pending = null;
      set({ trusted: true, trustRequest: null });
      run?.();
    },
    cancelTrust: () => {
      pending = null;
      set({ trustRequest: null });
    },
  };
};

export type { TrustRequest };
