/**
 * Registers the service worker (sw.ts) in production builds, so the app works offline after one
 * visit. The dev server has no service worker: it would cache modules that change as you edit.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const base = import.meta.env.BASE_URL;
  // After load: installing precaches a few megabytes, which should not compete with the page.
  const register = () =>
    navigator.serviceWorker.register(`${base}sw.js`, { scope: base }).catch((error: unknown) => {
      console.warn('The service worker could not be registered; offline use is off.', error);
    });
  if (document.readyState === 'complete') void register();
  else window.addEventListener('load', () => void register(), { once: true });
}
