/**
 * Loads the bundled text-classification corpus (State of the Union passages labelled by president,
 * built by scripts/build-data.mjs) with the semantics of Keras's `reuters.load_data`.
 */
import { gunzipIfNeeded } from './gunzip';
import type { ReadAsset } from './read-asset';
import { seededPermutation } from './seeded-shuffle';

export interface TextCorpusOptions {
  /** Keep word indices below this (after `indexFrom`); others become `oovChar`. Default: all. */
  numWords?: number;
  /** Indices below this become `oovChar` too (Keras compares the shifted index, and so do we). */
  skipTop?: number;
  /** Drop documents whose sequence (with the start mark) is not shorter than this. */
  maxlen?: number;
  /** Fraction of the shuffled documents kept for the test split. */
  testSplit?: number;
  /** Seed of the shuffle before the split. */
  seed?: number;
  /** Mark at the start of every sequence; null for none. */
  startChar?: number | null;
  /** Stand-in for words outside [skipTop, numWords); null drops them instead. */
  oovChar?: number | null;
  /** Word ranks are shifted by this, leaving 0 (padding), 1 (start) and 2 (OOV) free. */
  indexFrom?: number;
}

export interface TextSplit {
  sequences: Int32Array[];
  labels: Int32Array;
}

export interface TextCorpus {
  train: TextSplit;
  test: TextSplit;
  /** Word → frequency rank (1 = most frequent), without the `indexFrom` shift. */
  wordIndex: Map<string, number>;
  /** Class names by label: the presidents, in order of their first address. */
  labelNames: string[];
  provenance: string;
}

interface CorpusFile {
  format: number;
  provenance: string;
  tokenBytes: 2 | 4;
  documents: number;
  totalTokens: number;
  labelNames: string[];
  words: string[];
  labels: number[];
  lengths: number[];
}

const CORPUS = 'sotu/corpus.json.gz';
const TOKENS = 'sotu/tokens.bin.gz';

function asCorpusFile(value: unknown): CorpusFile {
  const c = value as Partial<CorpusFile> | null;
  if (
    !c ||
    c.format !== 1 ||
    (c.tokenBytes !== 2 && c.tokenBytes !== 4) ||
    !Array.isArray(c.words) ||
    !Array.isArray(c.labelNames) ||
    !Array.isArray(c.labels) ||
    !Array.isArray(c.lengths) ||
    c.labels.length !== c.documents ||
    c.lengths.length !== c.documents
  ) {
    throw new Error(`${CORPUS}: unknown format (rebuild with scripts/build-data.mjs)`);
  }
  return c as CorpusFile;
}

/** Decodes the concatenated little-endian word ranks into one array per document. */
function splitDocuments(bytes: Uint8Array, corpus: CorpusFile): Int32Array[] {
  if (bytes.length !== corpus.totalTokens * corpus.tokenBytes) {
    throw new Error(`${TOKENS}: ${bytes.length} bytes, expected ${corpus.totalTokens} tokens`);
  }
  // A DataView reads little-endian on any host and needs no alignment of the inflated bytes.
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const docs: Int32Array[] = [];
  let offset = 0;
  for (const length of corpus.lengths) {
    const doc = new Int32Array(length);
    for (let i = 0; i < length; i++, offset += corpus.tokenBytes) {
      doc[i] =
        corpus.tokenBytes === 2 ? view.getUint16(offset, true) : view.getUint32(offset, true);
    }
    docs.push(doc);
  }
  return docs;
}

function maxIndex(xs: Int32Array[]): number {
  let max = 0;
  for (const x of xs) for (const w of x) if (w > max) max = w;
  return max;
}

export async function loadTextCorpus(
  readAsset: ReadAsset,
  options: TextCorpusOptions = {},
): Promise<TextCorpus> {
  const {
    numWords,
    skipTop = 0,
    maxlen,
    testSplit = 0.2,
    seed = 113,
    startChar = 1,
    oovChar = 2,
    indexFrom = 3,
  } = options;
  if (!(testSplit >= 0 && testSplit <= 1)) throw new Error(`testSplit must be in [0, 1]`);

  const [corpusBytes, tokenBytes] = await Promise.all([
    readAsset(CORPUS).then(gunzipIfNeeded),
    readAsset(TOKENS).then(gunzipIfNeeded),
  ]);
  const corpus = asCorpusFile(JSON.parse(new TextDecoder().decode(corpusBytes)) as unknown);
  const ranks = splitDocuments(tokenBytes, corpus);

  // The steps and their order are those of keras.datasets.reuters.load_data: shuffle, add the
  // start mark and shift, drop long documents, map rare words to OOV, then split.
  const order = seededPermutation(ranks.length, seed);
  let xs: Int32Array[] = [];
  const ys: number[] = [];
  for (const i of order) {
    const doc = ranks[i];
    const head = startChar === null ? 0 : 1;
    const x = new Int32Array(head + doc.length);
    if (startChar !== null) x[0] = startChar;
    for (let k = 0; k < doc.length; k++) x[head + k] = doc[k] + indexFrom;
    if (maxlen !== undefined && x.length >= maxlen) continue;
    xs.push(x);
    ys.push(corpus.labels[i]);
  }

  // Without numWords Keras takes the largest index present, and its strict `w < num_words` test
  // then turns that one (rarest) word into OOV too; kept so `x.max() + 1` matches Keras.
  const limit = numWords || maxIndex(xs);
  const keep = (w: number): boolean => w >= skipTop && w < limit;
  xs = xs.map((x) => {
    if (x.every(keep)) return x;
    if (oovChar !== null) return x.map((w) => (keep(w) ? w : oovChar));
    return x.filter(keep);
  });

  const cut = Math.floor(xs.length * (1 - testSplit));
  return {
    train: { sequences: xs.slice(0, cut), labels: Int32Array.from(ys.slice(0, cut)) },
    test: { sequences: xs.slice(cut), labels: Int32Array.from(ys.slice(cut)) },
    wordIndex: new Map(corpus.words.map((word, i) => [word, i + 1])),
    labelNames: corpus.labelNames.slice(),
    provenance: corpus.provenance,
  };
}
