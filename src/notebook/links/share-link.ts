/**
 * Makes the `#nb=` link that shares a notebook (shared/TESTING.md): the nbformat JSON of the
 * notebook, compressed into the URL's hash so it never reaches a server. Outputs are left out
 * unless asked for: they can be large, and a reader runs the code to see them anyway.
 */
import { toIpynb, type IpynbNotebook } from '../files/ipynb';
import { clearAllOutputs, resetRuntimeState, type Notebook } from '../model';
import { COMFORTABLE_LINK_CHARS, encodePayload } from './payload-codec';

export interface ShareLink {
  url: string;
  /** Characters in the whole URL. */
  length: number;
  /** False past COMFORTABLE_LINK_CHARS, where chat apps and some browsers cut links. */
  comfortable: boolean;
}

/** The notebook as it goes into a link: without outputs or execution counts unless asked. */
export function shareableIpynb(notebook: Notebook, includeOutputs: boolean): IpynbNotebook {
  // At rest first: clearing outputs keeps a running cell's execution count.
  const atRest = resetRuntimeState(notebook);
  // Charts go without their SVG picture: only gpubook reads a link, and it draws them itself.
  return toIpynb(includeOutputs ? atRest : clearAllOutputs(atRest), { chartPictures: false });
}

/** `appUrl` is where the app lives, e.g. `https://example.org/gpubook/`. */
export async function buildShareLink(
  notebook: Notebook,
  options: { includeOutputs: boolean; appUrl: string },
): Promise<ShareLink> {
  const payload = await encodePayload(shareableIpynb(notebook, options.includeOutputs));
  const base = options.appUrl.replace(/[?#].*$/, '');
  const url = `${base}#nb=${payload}`;
  return { url, length: url.length, comfortable: url.length <= COMFORTABLE_LINK_CHARS };
}
