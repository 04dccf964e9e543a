/**
 * Every keyboard shortcut of the notebook, in one typed registry (marimo style): the editor and
 * the cells match key events against it, and the help text is read from it. (End-to-end tests
 * press the keys themselves, as a user does.)
 */
import { runAndAdvance, runAndInsertBelow, runInPlace } from './store/commands';
import type { AppStore } from './store/createAppStore';

export interface KeyCombo {
  key: string;
  shift?: boolean;
  alt?: boolean;
  /** Ctrl on Windows/Linux, Cmd on macOS (either is accepted everywhere). */
  mod?: boolean;
}

/** Where a shortcut applies: inside a cell's editor, or on a selected cell outside an editor. */
export type ShortcutScope = 'editor' | 'cell';

export interface Shortcut {
  keys: KeyCombo;
  /** What the user sees, e.g. in a button's title. */
  label: string;
  /** The key string Playwright's `keyboard.press` takes. */
  playwright: string;
  scopes: readonly ShortcutScope[];
  /** Commands that the cell component cannot express alone take the store and the cell. */
  run?: (store: AppStore, cellId: string) => void;
}

export const SHORTCUTS = {
  runAndAdvance: {
    keys: { key: 'Enter', shift: true },
    label: 'Shift+Enter',
    playwright: 'Shift+Enter',
    scopes: ['editor', 'cell'],
    run: runAndAdvance,
  },
  runInPlace: {
    keys: { key: 'Enter', mod: true },
    label: 'Ctrl/Cmd+Enter',
    playwright: 'ControlOrMeta+Enter',
    scopes: ['editor', 'cell'],
    run: runInPlace,
  },
  runAndInsertBelow: {
    keys: { key: 'Enter', alt: true },
    label: 'Alt+Enter',
    playwright: 'Alt+Enter',
    scopes: ['editor', 'cell'],
    run: runAndInsertBelow,
  },
  /** On a rendered markdown cell: show its source for editing. */
  editCell: {
    keys: { key: 'Enter' },
    label: 'Enter',
    playwright: 'Enter',
    scopes: ['cell'],
  },
} as const satisfies Record<string, Shortcut>;

export type ShortcutId = keyof typeof SHORTCUTS;

/** The fields of a KeyboardEvent that matching reads (DOM and Monaco events both have them). */
export interface KeyEventLike {
  key: string;
  shiftKey: boolean;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
}

export function matchesCombo(event: KeyEventLike, combo: KeyCombo): boolean {
  const mod = event.ctrlKey || event.metaKey;
  return (
    event.key === combo.key &&
    event.shiftKey === Boolean(combo.shift) &&
    event.altKey === Boolean(combo.alt) &&
    mod === Boolean(combo.mod)
  );
}

/** The shortcut a key event triggers in `scope`, or null. */
export function matchShortcut(event: KeyEventLike, scope: ShortcutScope): ShortcutId | null {
  for (const id of Object.keys(SHORTCUTS) as ShortcutId[]) {
    const shortcut: Shortcut = SHORTCUTS[id];
    if (shortcut.scopes.includes(scope) && matchesCombo(event, shortcut.keys)) return id;
  }
  return null;
}
