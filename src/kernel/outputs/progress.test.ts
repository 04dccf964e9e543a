import { describe, expect, it } from 'vitest';
import { PROGRESS_MIME, type ProgressData } from '../protocol';
import { parsePostfixString, Progbar, ProgressBar, Tqdm } from './progress';
import {
  formatClock,
  formatG,
  formatKeras,
  formatTqdm,
  progressTail,
  tqdmBar,
} from './progress-format';
import { ManualClock } from './testing-clock';

describe('formatG (Python {:.3g})', () => {
  it.each([
    [0.31234, '0.312'],
    [13.114, '13.1'],
    [0.0814, '0.0814'],
    [1234.5, '1.23e+03'],
    [0.00001234, '1.23e-05'],
    [0.0001234, '0.000123'],
    [9.996, '10'],
    [999.6, '1e+03'],
    [100, '100'],
    [-0.5, '-0.5'],
    [0.9, '0.9'],
    [0, '0'],
    [Number.NaN, 'nan'],
  ])('%s → %s', (value, text) => {
    expect(formatG(value, 3)).toBe(text);
  });
});

const base: ProgressData = {
  value: 37,
  max: 100,
  unit: 'it',
  elapsed: 12,
  rate: 37 / 12,
  remaining: 63 / (37 / 12),
  postfix: { loss: '0.52' },
  style: 'tqdm',
  done: false,
};

describe('tqdm text', () => {
  it('matches tqdm’s layout: percent, eighth-block bar, counts, clock, rate, postfix', () => {
    expect(formatTqdm(base)).toBe(' 37%|███▋      | 37/100 [00:12<00:20,  3.08it/s, loss=0.52]');
    expect(formatTqdm({ ...base, desc: 'train' }).startsWith('train:  37%|')).toBe(true);
  });

  it('shows seconds per item when slow, and no total when unknown', () => {
    const slow = formatTqdm({
      ...base,
      value: 2,
      elapsed: 5,
      rate: 0.4,
      remaining: 245,
      postfix: {},
    });
    expect(slow).toBe('  2%|▏         | 2/100 [00:05<04:05,  2.50s/it]');
    const open = formatTqdm({ ...base, max: null, remaining: null, postfix: {} });
    expect(open).toBe('37it [00:12,  3.08it/s]');
  });

  it('bars and clocks', () => {
    expect(tqdmBar(1)).toBe('██████████');
    expect(tqdmBar(0)).toBe('          ');
    expect(tqdmBar(0.05)).toBe('▌         '); // 4 of 8 eighths: half a cell
    expect(formatClock(35.9)).toBe('00:35');
    expect(formatClock(3725)).toBe('1:02:05');
  });
});

describe('Keras Progbar text', () => {
  it('draws the 30-wide bar with an arrow while running and ETA', () => {
    const data: ProgressData = {
      ...base,
      style: 'keras',
      value: 7,
      max: 469,
      elapsed: 0.5,
      rate: 14,
      remaining: 462 / 14,
      postfix: { loss: '0.69334' },
    };
    expect(formatKeras(data)).toBe(`  7/469 [${'.'.repeat(30)}] - ETA: 33s - loss: 0.6933`);
    const half = formatKeras({ ...data, value: 235 });
    expect(half).toContain(`[${'='.repeat(14)}>${'.'.repeat(15)}]`);
    const done = formatKeras({ ...data, value: 469, elapsed: 35, done: true });
    expect(done).toBe(`469/469 [${'='.repeat(30)}] - 35s 75ms/step - loss: 0.6933`);
  });
});

describe('ProgressBar', () => {
  it('measures rate and remaining time from its clock, and sorts postfix keys as tqdm does', () => {
    const clock = new ManualClock();
    const bar = new ProgressBar({ total: 50, desc: 'train', clock });
    clock.advance(4000);
    bar.update(10).setPostfix({ train_loss: 0.31234, train_acc: 0.9 });
    const data = bar.toData();
    expect(data.value).toBe(10);
    expect(data.elapsed).toBe(4);
    expect(data.rate).toBeCloseTo(2.5, 12);
    expect(data.remaining).toBeCloseTo(40 / 2.5, 12);
    expect(Object.keys(data.postfix)).toEqual(['train_acc', 'train_loss']);
    expect(data.postfix).toEqual({ train_acc: '0.9', train_loss: '0.312' });
    const bundle = bar.toBundle();
    expect(bundle[PROGRESS_MIME]).toEqual(data);
    expect(bundle['text/plain']).toBe(
      'train:  20%|██        | 10/50 [00:04<00:16,  2.50it/s, train_acc=0.9, train_loss=0.312]',
    );
    clock.advance(6000);
    bar.close();
    clock.advance(60_000);
    expect(bar.toData().elapsed).toBe(10);
    expect(bar.toData().done).toBe(true);
  });

  it('tqdm counts a synchronous loop and takes its total from the length', () => {
    const items = [3, 1, 4, 1, 5, 9, 2];
    const bar = new Tqdm(items);
    expect(bar.total).toBe(7);
    const seen: number[] = [];
    for (const x of bar) {
      seen.push(x);
      expect(bar.n).toBe(seen.length - 1);
    }
    expect(seen).toEqual(items);
    expect(bar.n).toBe(7);
    expect(bar.closed).toBe(true);
  });

  it('tqdm counts an async loop of unknown length and learns its total at the end', async () => {
    async function* gen() {
      for (let i = 0; i < 5; i++) yield i * i;
    }
    const bar = new Tqdm(gen());
    expect(bar.total).toBeNull();
    const seen: number[] = [];
    for await (const x of bar) seen.push(x);
    expect(seen).toEqual([0, 1, 4, 9, 16]);
    expect(bar.toData()).toMatchObject({ value: 5, max: 5, done: true });
  });

  it('a loop left early keeps the bar where it stopped', () => {
    const bar = new Tqdm([1, 2, 3, 4, 5, 6]);
    for (const x of bar) if (x === 3) break;
    expect(bar.toData()).toMatchObject({ value: 2, max: 6, done: true });
  });

  it('refuses synchronous iteration of an async source with a clear message', () => {
    async function* gen() {
      yield 1;
    }
    expect(() => [...new Tqdm(gen())]).toThrow(/for await/);
  });

  it('Progbar sets the count as Keras does and closes at its target', () => {
    const bar = new Progbar(10);
    bar.update(4, { loss: 0.5 });
    expect(bar.toData()).toMatchObject({ value: 4, max: 10, style: 'keras', done: false });
    bar.add(6);
    expect(bar.toData()).toMatchObject({ value: 10, done: true, postfix: { loss: '0.5' } });
  });
});

describe('progress text beside a drawn bar', () => {
  it('keeps the counts, clock, rate and postfix', () => {
    expect(progressTail(base)).toBe('37/100 [00:12<00:20,  3.08it/s, loss=0.52]');
    expect(progressTail({ ...base, max: null, remaining: null })).toBe(
      '37it [00:12,  3.08it/s, loss=0.52]',
    );
    expect(progressTail({ ...base, style: 'keras', max: 469, value: 7, remaining: 33 })).toBe(
      '7/469 - ETA: 33s - loss: 0.5200',
    );
  });
});

describe('set_postfix_str', () => {
  it('reads name=value pairs, and shows any other text as given', () => {
    expect(parsePostfixString('loss=0.52, acc=0.8')).toEqual({ loss: '0.52', acc: '0.8' });
    expect(parsePostfixString('loss=0.52 acc=0.8')).toEqual({ loss: '0.52', acc: '0.8' });
    expect(parsePostfixString('warming up')).toBeNull();
    const bar = new ProgressBar({ total: 4, desc: 'train' });
    bar.update(1).setPostfixStr('warming up');
    expect(bar.toBundle()['text/plain']).toMatch(/1\/4 \[.*, warming up\]$/);
    bar.setPostfixStr('loss=0.5');
    expect(bar.toBundle()['text/plain']).toMatch(/, loss=0\.5\]$/);
  });
});
