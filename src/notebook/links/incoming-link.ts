/**
 * Links that bring a notebook in (shared/TESTING.md, "Links"): `?open=ID` names a notebook bundled
 * with the app (`public/notebooks/ID.ipynb`), `#nb=PAYLOAD` carries a shared one. This module reads
 * such a URL and loads the notebook it names, turning every way a link can be bad into a LinkError
 * or NotebookFileError whose message the user can act on. It never stores or runs anything.
 */
import { fromIpynb, NotebookFileError, parseIpynbText } from '../files/ipynb';
import type { Notebook } from '../model';
import type { NotebookOrigin } from '../trust';
import { decodePayload, LinkError } from './payload-codec';

export const OPEN_PARAM = 'open';
const SHARE_HASH = '#nb=';

/** Bundled ids are plain names, so `../x`, `a/b` or a URL can never reach `fetch`. */
export const BUNDLED_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;

export type IncomingLink =
  | { kind: 'bundled'; id: string }
  | { kind: 'shared'; payload: string }
  /** A link we refuse before loading anything; `message` says why. */
  | { kind: 'invalid'; message: string };

/** The incoming link in `url`, or null when the URL is not one (a `#nb=` hash wins). */
export function parseIncomingLink(url: URL): IncomingLink | null {
  if (url.hash.startsWith(SHARE_HASH)) {
    return { kind: 'shared', payload: safeDecodeURIComponent(url.hash.slice(SHARE_HASH.length)) };
  }
  if (!url.searchParams.has(OPEN_PARAM)) return null;
  const id = url.searchParams.get(OPEN_PARAM) ?? '';
  if (BUNDLED_ID.test(id)) return { kind: 'bundled', id };
  const shown = id.length > 40 ? `${id.slice(0, 40)}…` : id;
  return {
    kind: 'invalid',
    message:
      id === ''
        ? 'The link names no notebook to open (?open= is empty).'
        : `“${shown}” is not the name of a bundled notebook (names are lower-case letters, digits and dashes).`,
  };
}

/** Browsers may percent-encode what they show; base64url itself never needs it. */
function safeDecodeURIComponent(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export function bundledNotebookUrl(id: string, baseUrl: string): string {
  if (!BUNDLED_ID.test(id)) throw new LinkError(`“${id}” is not the name of a bundled notebook.`);
  return `${baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`}notebooks/${id}.ipynb`;
}

export interface LoadedNotebook {
  /** A fresh notebook (new id) made from the link; the caller adds it to the user's list. */
  notebook: Notebook;
  origin: NotebookOrigin;
}

export interface LoadDeps {
  fetch: typeof fetch;
  /** The app's base URL (`import.meta.env.BASE_URL`), where `notebooks/` is served. */
  baseUrl: string;
}

export async function loadIncomingNotebook(
  link: IncomingLink,
  deps: LoadDeps,
): Promise<LoadedNotebook> {
  switch (link.kind) {
    case 'invalid':
      throw new LinkError(link.message);
    case 'bundled':
      return { notebook: await loadBundled(link.id, deps), origin: 'bundled' };
    case 'shared': {
      const json = await decodePayload(link.payload);
      try {
        return { notebook: fromIpynb(json, 'Shared notebook'), origin: 'shared-link' };
      } catch (error) {
        if (error instanceof NotebookFileError) {
          throw new LinkError(
            `The link does not hold a notebook gpubook can open: ${error.message}`,
          );
        }
        throw error;
      }
    }
  }
}

async function loadBundled(id: string, deps: LoadDeps): Promise<Notebook> {
  const url = bundledNotebookUrl(id, deps.baseUrl);
  let response: Response;
  try {
    // No text/html in Accept: a single-page-app server then answers a missing file with 404
    // instead of the app's index.html.
    response = await deps.fetch(url, {
      headers: { Accept: 'application/x-ipynb+json, application/json' },
    });
  } catch {
    throw new LinkError(
      `The bundled notebook “${id}” could not be loaded: the network is unreachable and it is not saved for offline use yet.`,
    );
  }
  const isHtml = (response.headers.get('content-type') ?? '').includes('text/html');
  if (response.status === 404 || (response.ok && isHtml)) {
    throw new LinkError(`There is no bundled notebook called “${id}”.`);
  }
  if (!response.ok) {
    throw new LinkError(
      `The bundled notebook “${id}” could not be loaded (the server answered ${response.status}).`,
    );
  }
  return parseIpynbText(await response.text(), id);
}
