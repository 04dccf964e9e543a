/**
 * Opens an incoming link (`?open=`, `#nb=`): loads its notebook and adds it to the user's list as a
 * NEW notebook — never over an existing one — trusted only if it is bundled (../notebook/trust.ts).
 * One link makes one copy even when asked twice at once (React's StrictMode runs effects twice).
 */
import { loadIncomingNotebook, type IncomingLink } from '../notebook/links/incoming-link';
import { trustedOnArrival } from '../notebook/trust';
import { repository } from './services';

const inFlight = new Map<string, Promise<string>>();

/** Resolves to the id of the new local notebook. */
export function importIncomingLink(key: string, link: IncomingLink): Promise<string> {
  const running = inFlight.get(key);
  if (running) return running;
  const task = (async () => {
    const { notebook, origin } = await loadIncomingNotebook(link, {
      fetch: (input, init) => fetch(input, init),
      baseUrl: import.meta.env.BASE_URL,
    });
    await repository.add(notebook, { trusted: trustedOnArrival(origin) });
    return notebook.id;
  })();
  inFlight.set(key, task);
  // Once settled the caller has replaced the URL; the same link opened later makes a new copy.
  void task.then(
    () => inFlight.delete(key),
    () => inFlight.delete(key),
  );
  return task;
}
