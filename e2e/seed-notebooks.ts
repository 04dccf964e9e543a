/**
 * The book's chapters as notebooks, read at test time from `../shared/seeds/` (beside the repo,
 * never copied into it): the chapter's ```python blocks in order, exactly as printed, with only
 * the sizes lowered by a short explicit table. Each substitution must match exactly once in the
 * chapter's code, so a seed that changed is noticed instead of silently running at full size.
 * A check cell may follow the book's cells (marked as not the book's) to print what the e2e test
 * asserts on.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** `../shared/seeds/` relative to the repo root (this file is in `<root>/e2e/`). */
export const SEEDS_DIR = fileURLToPath(new URL('../../shared/seeds/', import.meta.url));

export interface SizeSubstitution {
  /** Exact text of the book's code (may span lines: enough context to be unique). */
  from: string;
  to: string;
}

export interface SeedChapter {
  /** File name in SEEDS_DIR. */
  file: string;
  title: string;
  substitutions: readonly SizeSubstitution[];
  /** Appended after the book's cells, for the test to read (not the book's code). */
  checkCell?: string;
}

// Sizes for SwiftShader at size=test: 160 training and 64 test documents (the chapters' Python
// editions use the same at size=test), two epochs, and a 1000×100 by 100×2000 product instead of
// 10000×100 by 100×100000 (a billion floats is more than one browser GPU buffer holds).
const READ_LESS_DATA: readonly SizeSubstitution[] = [
  {
    from: 'x_train = preprocessing.sequence.pad_sequences(x_train,maxlen=MAX_LEN)',
    to: 'x_train = preprocessing.sequence.pad_sequences(x_train[:160],maxlen=MAX_LEN)',
  },
  {
    from: 'x_test = preprocessing.sequence.pad_sequences(x_test,maxlen=MAX_LEN)',
    to: 'x_test = preprocessing.sequence.pad_sequences(x_test[:64],maxlen=MAX_LEN)',
  },
  {
    from: 'tf.data.Dataset.from_tensor_slices((x_train,y_train))',
    to: 'tf.data.Dataset.from_tensor_slices((x_train,y_train[:160]))',
  },
  {
    from: 'tf.data.Dataset.from_tensor_slices((x_test,y_test))',
    to: 'tf.data.Dataset.from_tensor_slices((x_test,y_test[:64]))',
  },
];

const smallerProduct = (device: string): SizeSubstitution => ({
  from: `with tf.device("${device}"):
    tf.random.set_seed(0)
    a = tf.random.uniform((10000,100),minval = 0,maxval = 3.0)
    b = tf.random.uniform((100,100000),minval = 0,maxval = 3.0)`,
  to: `with tf.device("${device}"):
    tf.random.set_seed(0)
    a = tf.random.uniform((1000,100),minval = 0,maxval = 3.0)
    b = tf.random.uniform((100,2000),minval = 0,maxval = 3.0)`,
});

/** Rows × columns of the lowered product: its sum is about 1.5·1.5·100 per entry. */
export const PRODUCT_ENTRIES = 1000 * 2000;

export const SEED_CHAPTERS = {
  tfSingleGpu: {
    file: '000_7807d990af3109df.txt',
    title: '6-3 (seed): one GPU, GradientTape loop',
    substitutions: [
      smallerProduct('/gpu:0'),
      smallerProduct('/cpu:0'),
      ...READ_LESS_DATA,
      {
        from: 'train_model(model,ds_train,ds_test,10)',
        to: 'train_model(model,ds_train,ds_test,2)',
      },
    ],
    checkCell: [
      '# gpubook e2e check (not in the book)',
      'print("logical:", [d.name for d in tf.config.list_logical_devices()])',
    ].join('\n'),
  },
  tfMultiGpu: {
    file: '002_9a4797003fc8ec02.txt',
    title: '6-4 (seed): two logical GPUs, MirroredStrategy and fit',
    substitutions: [
      ...READ_LESS_DATA,
      {
        from: 'history = model.fit(ds_train,validation_data = ds_test,epochs = 10)',
        to: 'history = model.fit(ds_train,validation_data = ds_test,epochs = 2)',
      },
    ],
    checkCell: [
      '# gpubook e2e check (not in the book)',
      'print("replicas:", strategy.num_replicas_in_sync)',
      'print("history keys:", sorted(history.history.keys()))',
      'print("losses:", history.history["loss"])',
    ].join('\n'),
  },
} satisfies Record<string, SeedChapter>;

/** Why a seed test cannot run here, or null when the seeds are present. */
export function seedsMissing(): string | null {
  return existsSync(SEEDS_DIR)
    ? null
    : `the book's chapters are read from ${SEEDS_DIR} at test time, and that folder is absent (a clone without ../shared)`;
}

/** The ```python blocks of a chapter, in order, without the empty ones the book leaves between. */
export function pythonBlocks(text: string): string[] {
  const blocks: string[] = [];
  for (const match of text.matchAll(/^```python[ \t]*\n([\s\S]*?)^```[ \t]*$/gm)) {
    const code = match[1].replace(/\s+$/, '');
    if (code.trim() !== '') blocks.push(code);
  }
  return blocks;
}

function occurrences(text: string, part: string): number {
  let count = 0;
  for (let at = text.indexOf(part); at !== -1; at = text.indexOf(part, at + part.length)) count++;
  return count;
}

/** The chapter's code cells with the sizes lowered; throws if a substitution does not match exactly once. */
export function seedCells(chapter: SeedChapter, text = readSeed(chapter)): string[] {
  const cells = pythonBlocks(text);
  if (cells.length === 0) throw new Error(`${chapter.file}: no \`\`\`python blocks`);
  for (const { from, to } of chapter.substitutions) {
    const total = cells.reduce((n, cell) => n + occurrences(cell, from), 0);
    if (total !== 1) {
      throw new Error(
        `${chapter.file}: the size substitution for ${JSON.stringify(from)} matched ${total} times, not once (did the seed change?)`,
      );
    }
    const i = cells.findIndex((cell) => cell.includes(from));
    cells[i] = cells[i].replace(from, () => to);
  }
  return chapter.checkCell ? [...cells, chapter.checkCell] : cells;
}

export function readSeed(chapter: SeedChapter): string {
  return readFileSync(`${SEEDS_DIR}${chapter.file}`, 'utf8');
}

/** An nbformat 4 Python notebook (Jupyter's kernelspec) of these code cells. */
export function pythonNotebook(title: string, cells: readonly string[]): string {
  const lines = (source: string): string[] => source.split(/(?<=\n)/);
  return JSON.stringify({
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {
      title,
      kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' },
      language_info: { name: 'python' },
    },
    cells: cells.map((source, i) => ({
      cell_type: 'code',
      id: `cell-${i}`,
      metadata: {},
      execution_count: null,
      outputs: [],
      source: lines(source),
    })),
  });
}

/** The chapter as a Python notebook. */
export function seedNotebook(chapter: SeedChapter): string {
  return pythonNotebook(chapter.title, seedCells(chapter));
}
