/**
 * Markdown to safe HTML: `marked` (GitHub flavour) and then DOMPurify, which is the only way HTML
 * reaches the page. Links open in a new tab with rel=noopener; `javascript:` and other
 * non-web URLs, scripts, styles, forms and frames are removed.
 */
import DOMPurify from 'dompurify';
import { Marked } from 'marked';

const marked = new Marked({ gfm: true, breaks: false, async: false });

const SAFE_LINK = /^(?:https?:|mailto:|#|\/|\.{0,2}\/|[^:]*$)/i;

let hooksInstalled = false;

function installHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName !== 'A') return;
    const href = node.getAttribute('href');
    // DOMPurify already drops javascript: URLs; this also drops data:, vbscript: and the like.
    if (href !== null && !SAFE_LINK.test(href.trim())) node.removeAttribute('href');
    if (href !== null && !href.startsWith('#')) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    }
  });
}

export function renderMarkdown(source: string): string {
  installHooks();
  const html = marked.parse(source, { async: false });
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: [
      'style',
      'form',
      'input',
      'button',
      'textarea',
      'select',
      'iframe',
      'object',
      'embed',
    ],
    FORBID_ATTR: ['style'],
    SANITIZE_NAMED_PROPS: true,
  });
}
