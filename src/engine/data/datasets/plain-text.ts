/**
 * Loads a bundled plain-text corpus (scripts/build-data.mjs writes `text/<name>.txt.gz`) as one
 * string, for character-level language models.
 */
import { gunzipIfNeeded } from './gunzip';
import type { ReadAsset } from './read-asset';

/** The bundled plain texts, and what each holds (docs/datasets.md). */
export const PLAIN_TEXTS: Readonly<Record<string, string>> = {
  sotu: 'the State of the Union addresses 1993-2021 (1.06 million characters, 77 symbols)',
};

/** The file of a bundled text, relative to the data root. */
export const plainTextPath = (name: string): string => `text/${name}.txt.gz`;

/** `await loadPlainText(readAsset, 'sotu')`: the whole text, newlines included. */
export async function loadPlainText(readAsset: ReadAsset, name: string): Promise<string> {
  if (!Object.hasOwn(PLAIN_TEXTS, name)) {
    const known = Object.keys(PLAIN_TEXTS)
      .map((n) => `'${n}'`)
      .join(', ');
    throw new Error(`loadText: no bundled text named '${name}'; the bundled texts are ${known}`);
  }
  const bytes = await gunzipIfNeeded(await readAsset(plainTextPath(name)));
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}
