/**
 * Markdown to safe HTML: `marked` (GitHub flavour), then the notebook sanitiser
 * (../security/sanitize.ts), which is the only way HTML reaches the page.
 */
import { Marked } from 'marked';
import { sanitizeHtml } from '../security/sanitize';

const marked = new Marked({ gfm: true, breaks: false, async: false });

export function renderMarkdown(source: string): string {
  return sanitizeHtml(marked.parse(source, { async: false }));
}
