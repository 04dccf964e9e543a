import { describe, expect, it } from 'vitest';
import { matchShortcut, SHORTCUTS, type KeyEventLike } from './shortcuts';

const key = (k: string, mods: Partial<KeyEventLike> = {}): KeyEventLike => ({
  key: k,
  shiftKey: false,
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  ...mods,
});

describe('matchShortcut', () => {
  it('maps the Jupyter/Colab run keys, Ctrl and Cmd alike', () => {
    expect(matchShortcut(key('Enter', { shiftKey: true }), 'editor')).toBe('runAndAdvance');
    expect(matchShortcut(key('Enter', { ctrlKey: true }), 'editor')).toBe('runInPlace');
    expect(matchShortcut(key('Enter', { metaKey: true }), 'editor')).toBe('runInPlace');
    expect(matchShortcut(key('Enter', { altKey: true }), 'editor')).toBe('runAndInsertBelow');
  });

  it('leaves plain Enter to the editor and extra modifiers alone', () => {
    expect(matchShortcut(key('Enter'), 'editor')).toBeNull();
    expect(matchShortcut(key('Enter'), 'cell')).toBe('editCell');
    expect(matchShortcut(key('Enter', { shiftKey: true, ctrlKey: true }), 'editor')).toBeNull();
    expect(matchShortcut(key('a', { shiftKey: true }), 'editor')).toBeNull();
  });

  it('gives every shortcut a Playwright key string built from its combo', () => {
    for (const shortcut of Object.values(SHORTCUTS)) {
      const parts = shortcut.playwright.split('+');
      expect(parts[parts.length - 1]).toBe(shortcut.keys.key);
      expect(parts.includes('Shift')).toBe(Boolean('shift' in shortcut.keys));
      expect(parts.includes('Alt')).toBe(Boolean('alt' in shortcut.keys));
      expect(parts.includes('ControlOrMeta')).toBe(Boolean('mod' in shortcut.keys));
    }
  });
});
