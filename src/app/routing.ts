/**
 * Which page the URL shows: `?nb=<id>` is an open local notebook; `?open=<id>` (a bundled
 * notebook) and `#nb=<payload>` (a shared one) are incoming links, turned into a local copy and
 * then replaced by that copy's `?nb=` URL; anything else is the home page. Plain history API, no
 * router library; other query parameters (e.g. `size`) are kept when moving between pages.
 */
import { useSyncExternalStore } from 'react';
import { OPEN_PARAM, parseIncomingLink, type IncomingLink } from '../notebook/links/incoming-link';

export type Route =
  | { page: 'home' }
  | { page: 'notebook'; notebookId: string }
  /** `key` identifies the link, so one link makes one copy however often it is rendered. */
  | { page: 'incoming'; link: IncomingLink; key: string };

const NOTEBOOK_PARAM = 'nb';
const CHANGE_EVENT = 'gpubook:navigate';

export function routeFromUrl(url: URL): Route {
  const link = parseIncomingLink(url);
  if (link) return { page: 'incoming', link, key: `${url.search}${url.hash}` };
  const id = url.searchParams.get(NOTEBOOK_PARAM);
  return id ? { page: 'notebook', notebookId: id } : { page: 'home' };
}

/** Leaves incoming-link parts (`?open=`, `#nb=`) behind: a reload must not open them again. */
export function urlForRoute(route: Route, current: URL): string {
  // `?open=ID#present` is a teacher's link: the copy it makes opens in classroom mode too.
  const present = route.page === 'notebook' && current.hash === '#present' ? '#present' : '';
  const url = new URL(current.href);
  url.hash = '';
  url.searchParams.delete(OPEN_PARAM);
  if (route.page === 'notebook') url.searchParams.set(NOTEBOOK_PARAM, route.notebookId);
  else url.searchParams.delete(NOTEBOOK_PARAM);
  return `${url.pathname}${url.search}${present}`;
}

export function navigate(route: Route, options: { replace?: boolean } = {}): void {
  const target = urlForRoute(route, new URL(window.location.href));
  if (options.replace) window.history.replaceState(null, '', target);
  else window.history.pushState(null, '', target);
  window.dispatchEvent(new Event(CHANGE_EVENT));
}

/** The link's query parameters for cells (`params`), without the app's own routing key. */
export function linkParams(url: URL): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [key, value] of url.searchParams) {
    if (key !== NOTEBOOK_PARAM && key !== OPEN_PARAM) params[key] = value;
  }
  return params;
}

/**
 * A useSyncExternalStore subscription to the URL: Back and Forward, hash changes, and the app's own
 * `changeEvent` (which it dispatches after pushState or replaceState, as those fire no event).
 */
export function urlSubscription(changeEvent: string): (onChange: () => void) => () => void {
  // hashchange: a `#nb=` link pasted into the address bar of an open tab does not reload it.
  const events = ['popstate', 'hashchange', changeEvent];
  return (onChange) => {
    for (const event of events) window.addEventListener(event, onChange);
    return () => {
      for (const event of events) window.removeEventListener(event, onChange);
    };
  };
}

const subscribe = urlSubscription(CHANGE_EVENT);

let lastHref = '';
let lastRoute: Route = { page: 'home' };

function snapshot(): Route {
  // Same URL, same object: useSyncExternalStore needs a stable snapshot.
  if (window.location.href !== lastHref) {
    lastHref = window.location.href;
    lastRoute = routeFromUrl(new URL(lastHref));
  }
  return lastRoute;
}

export function useRoute(): Route {
  return useSyncExternalStore(subscribe, snapshot);
}
