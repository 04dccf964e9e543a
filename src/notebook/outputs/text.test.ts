import { describe, expect, it } from 'vitest';
import { stripAnsi, terminalText, truncateText } from './text';

describe('terminalText', () => {
  it('removes color and cursor escapes', () => {
    expect(stripAnsi('\x1b[1;31mError\x1b[0m: \x1b]0;title\x07bad\x1b[2K')).toBe('Error: bad');
  });

  it('lets a carriage return overwrite its line, as a terminal does', () => {
    expect(terminalText('epoch 1 10%\repoch 1 55%\repoch 1 100%\ndone\n')).toBe(
      'epoch 1 100%\ndone\n',
    );
    expect(terminalText('abcdef\rXY\r\n')).toBe('XYcdef\n');
  });
});

describe('truncateText', () => {
  const lines = (n: number) =>
    Array.from({ length: n }, (_, i) => `line ${i} ${'x'.repeat(i % 7)}\n`);

  it('shows short text whole', () => {
    const text = lines(200).join('');
    expect(truncateText(text)).toEqual({ head: text, tail: '', hiddenLines: 0, hiddenChars: 0 });
  });

  it('keeps the first and last lines of long text and counts what it hides', () => {
    const all = lines(1000);
    const text = all.join('');
    const cut = truncateText(text);
    expect(cut.head).toBe(all.slice(0, 100).join(''));
    expect(cut.tail).toBe(all.slice(950).join(''));
    expect(cut.hiddenLines).toBe(850);
    expect(cut.head.length + cut.hiddenChars + cut.tail.length).toBe(text.length);
  });

  it('caps very long lines in characters too', () => {
    const random = Array.from({ length: 300_000 }, (_, i) =>
      String.fromCharCode(97 + ((i * 7919) % 26)),
    ).join('');
    const cut = truncateText(random);
    expect(cut.head).toBe(random.slice(0, 20_000));
    expect(cut.tail).toBe(random.slice(-20_000));
    expect(cut.hiddenChars).toBe(260_000);
  });
});
