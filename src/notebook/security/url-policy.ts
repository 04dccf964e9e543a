/**
 * Which URLs notebook content may carry: links to http(s), mailto and relative addresses; images
 * from http(s), relative addresses and `data:image/…`. Anything else (`javascript:`, `vbscript:`,
 * `data:text/html`, `file:`, …) is dropped. Pure, so the rule is tested without a DOM.
 */

export type UrlUse = 'link' | 'image';

const LINK_SCHEMES = new Set(['http', 'https', 'mailto']);
const IMAGE_SCHEMES = new Set(['http', 'https']);
const DATA_IMAGE = /^data:image\/(?:png|jpeg|jpg|gif|webp|avif|bmp|svg\+xml)[;,]/i;

export function isAllowedUrl(url: string, use: UrlUse): boolean {
  // Browsers ignore control characters and whitespace inside a scheme ("java\tscript:"), so the
  // check does too.
  // eslint-disable-next-line no-control-regex -- control characters are exactly what goes
  const compact = url.replace(/[\u0000-\u0020\u007f-\u009f]+/g, '');
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(compact)?.[1]?.toLowerCase();
  if (scheme === undefined) return true; // relative, `#anchor`, `//host/…`
  if (use === 'link') return LINK_SCHEMES.has(scheme);
  return IMAGE_SCHEMES.has(scheme) || (scheme === 'data' && DATA_IMAGE.test(compact));
}

/** A `data:` URL for an image output, or null if the MIME type or data is not a plain image. */
export function imageDataUrl(mime: string, base64: string): string | null {
  if (!/^image\/(?:png|jpeg|gif|webp)$/.test(mime)) return null;
  const data = base64.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(data)) return null;
  return `data:${mime};base64,${data}`;
}
