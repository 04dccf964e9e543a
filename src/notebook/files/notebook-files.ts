/**
 * The page side of notebook files: file names from titles, downloading text as a file, and reading
 * a chosen `.ipynb` (with a size cap, so a huge file is refused before it is read into memory).
 */
import type { Notebook } from '../model';
import { NotebookFileError, parseIpynbText } from './ipynb';

/** Larger than any notebook we write (a notebook keeps at most a few MB of outputs per cell). */
export const MAX_IMPORT_BYTES = 64 * 1024 * 1024;

/** A file name safe on every OS, from a title: "Loss & accuracy?" → "Loss accuracy.ipynb". */
export function fileNameFor(title: string, extension: string): string {
  const base = title
    // eslint-disable-next-line no-control-regex -- control characters are exactly what goes
    .replace(/[\\/:*?"<>|#%&{}$!'`@=+^~\u0000-\u001f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 120);
  return `${base || 'notebook'}.${extension}`;
}

/** The title an imported file falls back to: its name without `.ipynb`. */
export function titleFromFileName(name: string): string {
  return name.replace(/\.ipynb$/i, '').trim() || 'Imported notebook';
}

/** Offers `text` (or bytes) to the browser as a download named `fileName`. */
export function downloadText(
  fileName: string,
  text: string | Uint8Array<ArrayBuffer>,
  mime: string,
): void {
  const url = URL.createObjectURL(new Blob([text], { type: mime }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.rel = 'noopener';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // The download has its own reference by now; revoking later frees the blob.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Reads a chosen file as a new notebook (new id); NotebookFileError says what is wrong. */
export async function readNotebookFile(
  file: Blob & { name: string },
  maxBytes = MAX_IMPORT_BYTES,
): Promise<Notebook> {
  if (file.size === 0) throw new NotebookFileError(`“${file.name}” is empty.`);
  if (file.size > maxBytes) {
    throw new NotebookFileError(
      `“${file.name}” is ${megabytes(file.size)}; notebooks larger than ${megabytes(maxBytes)} are not opened.`,
    );
  }
  return parseIpynbText(await file.text(), titleFromFileName(file.name));
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(bytes < 1024 * 1024 ? 2 : 0)} MB`;
}
