/**
 * "Copy link" for a bundled chapter, for teachers handing out `?open=ID` links. Without a usable
 * clipboard (insecure origin, permission refused) it shows the link selected in a read-only input.
 */
import { useEffect, useRef, useState } from 'react';
import { OPEN_PARAM } from '../notebook/links/incoming-link';
import './home-tools.css';

/** The absolute `<origin><base>?open=<id>` link to a bundled chapter. */
export function chapterLinkUrl(id: string, base: string, pageHref: string): string {
  const url = new URL(base, pageHref);
  url.search = '';
  url.hash = '';
  url.searchParams.set(OPEN_PARAM, id);
  return url.href;
}

type State = 'idle' | 'copied' | 'manual';

export function CopyChapterLink({ id, title }: { id: string; title: string }) {
  const [state, setState] = useState<State>('idle');
  const input = useRef<HTMLInputElement>(null);
  const url = chapterLinkUrl(id, import.meta.env.BASE_URL, window.location.href);

  useEffect(() => {
    if (state === 'manual') input.current?.select();
    if (state !== 'copied') return;
    const timer = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(timer);
  }, [state]);

  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(url);
      setState('copied');
    } catch {
      setState('manual');
    }
  };

  return (
    <span className="copy-chapter-link">
      <button
        type="button"
        className="button button-quiet"
        data-testid="copy-chapter-link"
        data-chapter-id={id}
        aria-label={`Copy a link to “${title}”`}
        onClick={() => void copy()}
      >
        {state === 'copied' ? 'Copied' : 'Copy link'}
      </button>
      {state === 'manual' && (
        <input
          ref={input}
          className="copy-chapter-link-input"
          readOnly
          value={url}
          aria-label="Link to copy"
          onFocus={(event) => event.target.select()}
        />
      )}
    </span>
  );
}
