import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { groupChapterEditions, isChapter, type Chapter } from './chapter-editions';

const chapter = (id: string, extra: Partial<Chapter> = {}): Chapter => ({
  id,
  title: id,
  ...extra,
});

describe('groupChapterEditions', () => {
  it('puts each edition with the chapter it is an edition of, in index order', () => {
    const groups = groupChapterEditions([
      chapter('torch-gpu', { language: 'typescript' }),
      chapter('torch-gpu-py', { language: 'python', edition: 'torch-gpu' }),
      chapter('tf-single-gpu'),
    ]);
    expect(groups.map((g) => [g.chapter.id, g.editions.map((e) => e.id)])).toEqual([
      ['torch-gpu', ['torch-gpu-py']],
      ['tf-single-gpu', []],
    ]);
  });

  it('keeps an edition of an unlisted chapter as a chapter of its own', () => {
    const groups = groupChapterEditions([chapter('a-py', { edition: 'a' }), chapter('b')]);
    expect(groups.map((g) => g.chapter.id)).toEqual(['a-py', 'b']);
  });

  it('accepts only entries with an id and a title', () => {
    expect(isChapter({ id: 'x', title: 'X', language: 'python' })).toBe(true);
    expect(isChapter({ id: 'x' })).toBe(false);
    expect(isChapter(null)).toBe(false);
  });
});

describe('the bundled chapter index (public/notebooks/index.json)', () => {
  it('pairs every Python edition with its TypeScript chapter, the tiny GPT included', () => {
    const index = JSON.parse(
      readFileSync(new URL('../../public/notebooks/index.json', import.meta.url), 'utf8'),
    ) as { chapters: unknown[] };
    expect(index.chapters.every(isChapter)).toBe(true);
    const groups = groupChapterEditions(index.chapters as Chapter[]);
    expect(groups.map((g) => [g.chapter.id, g.editions.map((e) => e.id)])).toEqual([
      ['torch-gpu', ['torch-gpu-py']],
      ['tf-single-gpu', ['tf-single-gpu-py']],
      ['tf-multi-gpu', ['tf-multi-gpu-py']],
      ['tiny-gpt', ['tiny-gpt-py']],
    ]);
  });
});
