/**
 * Which notebooks may run code without asking. A notebook's code runs with the page's origin
 * (its storage, its other notebooks), so code the user did not write or choose — a shared link, an
 * imported file — waits for an explicit "trust and run". Trust belongs to the user's copy in
 * this browser, never to the notebook file: nothing in a file or a link can mark itself trusted.
 */

/** How a notebook came into the user's list. */
export type NotebookOrigin =
  /** made here with "New notebook": the user writes its code. */
  | 'new'
  /** a chapter shipped with the app (`?open=`): our own code. */
  | 'bundled'
  /** decoded from a `#nb=` link: anyone could have written it. */
  | 'shared-link'
  /** an imported `.ipynb`: anyone could have written it. */
  | 'file'
  /** a duplicate (or "keep mine" copy) of a notebook in the list: it inherits that one's trust. */
  | 'copy';

export function trustedOnArrival(origin: NotebookOrigin, sourceTrusted = false): boolean {
  switch (origin) {
    case 'new':
    case 'bundled':
      return true;
    case 'shared-link':
    case 'file':
      return false;
    case 'copy':
      return sourceTrusted;
  }
}

/** The action that asked for trust, carried out once the user trusts the notebook. */
export type TrustRequest =
  | { action: 'run-cell'; cellId: string }
  | { action: 'run-all' }
  | { action: 'run-above'; cellId: string };
