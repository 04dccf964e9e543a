/**
 * Whether the open notebook is in classroom (presentation) mode: exactly the URL hash `#present`,
 * so the mode survives a reload, can be linked to, and Back leaves it. `#nb=` links are untouched.
 */
import { useSyncExternalStore } from 'react';
import { urlSubscription } from '../routing';

export const PRESENT_HASH = '#present';
const CHANGE_EVENT = 'gpubook:present';

export function isPresentHash(hash: string): boolean {
  return hash === PRESENT_HASH;
}

const subscribe = urlSubscription(CHANGE_EVENT);

export function usePresentMode(): boolean {
  return useSyncExternalStore(subscribe, () => isPresentHash(window.location.hash));
}

/** A history entry of its own, so the browser's Back button also leaves the mode. */
export function enterPresentation(): void {
  if (!isPresentHash(window.location.hash)) window.location.hash = PRESENT_HASH;
}

/** Replaces rather than pushes: leaving must not leave a `#present` entry to go forward into. */
export function leavePresentation(): void {
  if (!isPresentHash(window.location.hash)) return;
  const { pathname, search } = window.location;
  window.history.replaceState(window.history.state, '', `${pathname}${search}`);
  window.dispatchEvent(new Event(CHANGE_EVENT));
}
