/**
 * The chapters bundled with the app (public/notebooks/index.json), each opened by `?open=ID`, one
 * row per chapter with its editions in other languages beside it, and the control that makes all
 * their data available offline.
 */
import { useEffect, useState } from 'react';
import { OPEN_PARAM } from '../notebook/links/incoming-link';
import { groupChapterEditions, isChapter, LANGUAGE_NAMES, type Chapter } from './chapter-editions';
import { CopyChapterLink } from './CopyChapterLink';
import { OfflineData } from './OfflineData';
import { OfflinePythonPackages } from './OfflinePythonPackages';

function isChapterList(value: unknown): value is { chapters: Chapter[] } {
  const chapters = (value as { chapters?: unknown } | null)?.chapters;
  return Array.isArray(chapters) && chapters.every(isChapter);
}

const chapterHref = (id: string): string =>
  `${import.meta.env.BASE_URL}?${OPEN_PARAM}=${encodeURIComponent(id)}`;

export function ChapterList() {
  const [chapters, setChapters] = useState<Chapter[]>([]);

  useEffect(() => {
    let cancelled = false;
    fetch(`${import.meta.env.BASE_URL}notebooks/index.json`, {
      headers: { Accept: 'application/json' },
    })
      .then((response) => (response.ok ? response.json() : null))
      .then((value: unknown) => {
        if (!cancelled && isChapterList(value)) setChapters(value.chapters);
      })
      // No index (or offline before the first visit): the section simply does not show.
      .catch(() => {});
    return () => {
      cancelled = true;
    };
  }, []);

  if (chapters.length === 0) return null;
  return (
    <section className="home-list" aria-labelledby="chapters-title">
      <h2 id="chapters-title">Chapters</h2>
      <ul className="notebook-list">
        {groupChapterEditions(chapters).map(({ chapter, editions }) => (
          <li key={chapter.id} className="chapter-row">
            <a
              className="notebook-list-item"
              data-testid="chapter-link"
              href={chapterHref(chapter.id)}
            >
              <span className="notebook-list-title">{chapter.title}</span>
              {chapter.summary && (
                <span className="notebook-list-meta">
                  {chapter.minutes ? `${chapter.minutes} min · ` : ''}
                  {chapter.summary}
                </span>
              )}
            </a>
            <CopyChapterLink id={chapter.id} title={chapter.title} />
            {editions.map((edition) => (
              <span key={edition.id} className="chapter-edition">
                <a
                  className="button button-quiet"
                  data-testid="chapter-edition-link"
                  data-chapter-id={edition.id}
                  data-language={edition.language ?? 'typescript'}
                  href={chapterHref(edition.id)}
                  title={edition.title}
                >
                  In {LANGUAGE_NAMES[edition.language ?? 'typescript']}
                </a>
                <CopyChapterLink id={edition.id} title={edition.title} />
              </span>
            ))}
          </li>
        ))}
      </ul>
      <OfflineData />
      <OfflinePythonPackages />
    </section>
  );
}
