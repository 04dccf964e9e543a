/**
 * The home page's chapter list, one row per chapter whatever its languages: a chapter's other
 * editions (public/notebooks/index.json entries with `edition: <id of the chapter>`, e.g. the
 * Python edition of the PyTorch chapter) go with the chapter they are an edition of.
 */
import type { CellLanguage } from '../kernel/protocol';

export interface Chapter {
  id: string;
  title: string;
  summary?: string;
  minutes?: number;
  /** The language of the chapter's code cells; TypeScript when absent. */
  language?: CellLanguage;
  /** The id of the chapter this one is another language's edition of. */
  edition?: string;
}

export interface ChapterGroup {
  chapter: Chapter;
  /** The same chapter in other languages, in index order. */
  editions: Chapter[];
}

export function isChapter(value: unknown): value is Chapter {
  const c = value as Partial<Chapter> | null;
  return typeof c?.id === 'string' && typeof c.title === 'string';
}

export function groupChapterEditions(chapters: readonly Chapter[]): ChapterGroup[] {
  const ids = new Set(chapters.map((c) => c.id));
  const groups = new Map<string, ChapterGroup>();
  for (const chapter of chapters) {
    // An edition of a chapter that is not listed stands on its own.
    if (chapter.edition === undefined || !ids.has(chapter.edition)) {
      groups.set(chapter.id, { chapter, editions: [] });
    }
  }
  for (const chapter of chapters) {
    if (chapter.edition !== undefined && ids.has(chapter.edition)) {
      groups.get(chapter.edition)?.editions.push(chapter);
    }
  }
  return [...groups.values()];
}

export const LANGUAGE_NAMES: Record<CellLanguage, string> = {
  typescript: 'TypeScript',
  python: 'Python',
};
