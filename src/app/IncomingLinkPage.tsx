/**
 * The page while an incoming link is opened: makes the local copy, then replaces the URL with the
 * copy's own (so a reload opens the copy, not the link again). A bad link shows the error banner
 * and lands on the home page, with every saved notebook untouched.
 */
import { useEffect } from 'react';
import type { IncomingLink } from '../notebook/links/incoming-link';
import { importIncomingLink } from './incoming';
import { showError } from './notices';
import { navigate } from './routing';

export function IncomingLinkPage({ link, linkKey }: { link: IncomingLink; linkKey: string }) {
  useEffect(() => {
    let active = true;
    importIncomingLink(linkKey, link).then(
      (notebookId) => {
        if (active) navigate({ page: 'notebook', notebookId }, { replace: true });
      },
      (error: unknown) => {
        if (!active) return;
        showError(error);
        navigate({ page: 'home' }, { replace: true });
      },
    );
    return () => {
      active = false;
    };
  }, [link, linkKey]);

  return <p className="page-loading muted">Opening the notebook from the link…</p>;
}
