/**
 * The one way HTML from a notebook reaches the page: DOMPurify with a strict configuration. No
 * script, no event handler (`on*`), no style, form, frame, object or embed, and URLs only as
 * url-policy.ts allows; links open in a new tab without access to this one. Uses its own DOMPurify
 * instance so these hooks apply to notebook content only.
 */
import createDOMPurify, { type DOMPurify } from 'dompurify';
import { isAllowedUrl } from './url-policy';

const FORBID_TAGS = [
  'style',
  'script',
  'form',
  'input',
  'button',
  'textarea',
  'select',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'base',
  'link',
  'meta',
];
const FORBID_ATTR = ['style', 'srcset', 'action', 'formaction', 'ping', 'background', 'poster'];
const URL_ATTRS = ['href', 'src', 'xlink:href'];

let purifier: DOMPurify | null = null;

function instance(): DOMPurify {
  if (purifier) return purifier;
  const created = createDOMPurify(window);
  created.addHook('uponSanitizeAttribute', (_node, data) => {
    // DOMPurify drops known handlers already; this catches any `on…` it might not know.
    if (data.attrName.toLowerCase().startsWith('on')) data.keepAttr = false;
  });
  created.addHook('afterSanitizeAttributes', (node) => {
    for (const name of URL_ATTRS) {
      const value = node.getAttribute(name);
      if (value === null) continue;
      const use = node.tagName === 'IMG' && name === 'src' ? 'image' : 'link';
      if (!isAllowedUrl(value, use)) node.removeAttribute(name);
    }
    if (node.tagName === 'A') {
      const href = node.getAttribute('href');
      if (href !== null && !href.startsWith('#')) {
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer');
      }
    }
  });
  purifier = created;
  return created;
}

export function sanitizeHtml(html: string): string {
  return instance().sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS,
    FORBID_ATTR,
    SANITIZE_NAMED_PROPS: true,
    ALLOW_UNKNOWN_PROTOCOLS: false,
  });
}

const SVG_FORBID_TAGS = FORBID_TAGS.filter((tag) => tag !== 'style').concat(['foreignObject']);

/**
 * An `image/svg+xml` output as a `data:` URL for an `<img>`: sanitised like every notebook markup
 * (no script, no event handler, URLs as url-policy.ts allows), then shown as an image, where
 * nothing in it could run or load anyway. Styles stay (matplotlib's SVGs need them; inside an
 * image they cannot reach the page). Null when no `<svg>` element is left.
 */
export function svgDataUrl(svg: string): string | null {
  const body = instance().sanitize(svg, {
    USE_PROFILES: { svg: true, svgFilters: true },
    FORBID_TAGS: SVG_FORBID_TAGS,
    FORBID_ATTR: FORBID_ATTR.filter((attr) => attr !== 'style'),
    SANITIZE_NAMED_PROPS: true,
    ALLOW_UNKNOWN_PROTOCOLS: false,
    RETURN_DOM: true,
  });
  const root = (body as Element).querySelector('svg');
  if (!root) return null;
  // XML, with its namespaces declared, as an image must be (the HTML serialisation is not).
  const xml = new XMLSerializer().serializeToString(root);
  const bytes = new TextEncoder().encode(xml);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `data:image/svg+xml;base64,${btoa(binary)}`;
}
