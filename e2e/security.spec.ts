/**
 * Nothing in a notebook can run script in the page: markdown from a shared link with script tags,
 * event handlers and `javascript:` links renders inert (attributes gone, no dialog, no effect), and
 * the built page carries the CSP as a <meta> matching scripts/security-headers.ts.
 */
import { expect, test } from '@playwright/test';
import { metaContentSecurityPolicy } from '../scripts/security-headers.ts';
import { nbformat, payloadFor } from './persistence-helpers';

const HOSTILE_MARKDOWN = [
  '# Harmless title',
  '<img src="x" onerror="window.__pwned = \'img\'; alert(1)">',
  '<script>window.__pwned = "script"; alert(2)</script>',
  '[click me](javascript:window.__pwned="link";alert(3))',
  '<a href="javascript:alert(4)" onclick="window.__pwned=\'onclick\'">raw link</a>',
  '<a href="jav&#x09;ascript:alert(5)">encoded link</a>',
  '<svg><script>alert(6)</script><circle onload="alert(7)"/></svg>',
  '<iframe srcdoc="<script>parent.__pwned=\'iframe\'</script>"></iframe>',
  '<form action="https://evil.example"><input name="q"><button>go</button></form>',
  '<div style="position:fixed;inset:0" onmouseover="window.__pwned=\'hover\'">styled</div>',
  '<object data="data:text/html,<script>alert(8)</script>"></object>',
  '<img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==" alt="dot">',
  '[a safe link](https://example.org/docs)',
].join('\n\n');

test('hostile markdown from a shared link renders inert', async ({ page }) => {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const payload = payloadFor(
    nbformat('Hostile', [{ cell_type: 'markdown', source: HOSTILE_MARKDOWN }]),
  );
  await page.goto(`/#nb=${payload}`);
  const body = page.locator('.markdown-body');
  await expect(body.locator('h1')).toHaveText('Harmless title');

  // What must be gone from the rendered DOM.
  await expect(
    body.locator('script, iframe, form, input, button, object, embed, style, svg'),
  ).toHaveCount(0);
  expect(await body.locator('[onerror], [onclick], [onload], [onmouseover], [style]').count()).toBe(
    0,
  );
  const hrefs = await body
    .locator('a')
    .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
  expect(hrefs).toEqual([null, null, null, 'https://example.org/docs']);
  await expect(body.locator('a[href="https://example.org/docs"]')).toHaveAttribute(
    'rel',
    /noopener/,
  );
  // A data:image survives (images are allowed), the broken "x" image stays harmless.
  await expect(body.locator('img[alt="dot"]')).toHaveAttribute('src', /^data:image\/png/);

  // Poke at it: click the links, hover, wait for images to fail.
  for (const link of await body.locator('a:not([href^="https"])').all()) await link.click();
  await body.getByText('styled').hover();
  await page.waitForTimeout(300);
  expect(await page.evaluate(() => (window as { __pwned?: string }).__pwned ?? null)).toBeNull();
  expect(dialogs).toEqual([]);
});

test('the built page carries the CSP as a meta element, matching the header policy', async ({
  page,
}) => {
  const response = await page.goto('/');
  const meta = page.locator('meta[http-equiv="Content-Security-Policy"]');
  await expect(meta).toHaveAttribute('content', metaContentSecurityPolicy);
  expect(metaContentSecurityPolicy).not.toContain('frame-ancestors');
  // Served by vite preview, the header carries the full policy (with frame-ancestors).
  expect(response?.headers()['content-security-policy']).toContain('frame-ancestors');
  // No inline script anywhere in the page: the CSP would refuse it.
  expect(await page.locator('script:not([src])').count()).toBe(0);
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
});
