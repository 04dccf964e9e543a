import { describe, expect, it } from 'vitest';
import { sectionOf, splitSections, startsWithHeading, type SectionCell } from './sections';

const md = (id: string, source: string): SectionCell => ({ id, type: 'markdown', source });
const code = (id: string, source = 'x'): SectionCell => ({ id, type: 'code', source });

describe('startsWithHeading', () => {
  it('knows ATX and setext headings and nothing else', () => {
    expect(startsWithHeading(md('a', '# Title'))).toBe(true);
    expect(startsWithHeading(md('a', '\n\n  ### Deep\ntext'))).toBe(true);
    expect(startsWithHeading(md('a', 'Title\r\n=====\r\nbody'))).toBe(true);
    expect(startsWithHeading(md('a', 'Title\n---'))).toBe(true);
    expect(startsWithHeading(md('a', '#hashtag is not a heading'))).toBe(false);
    expect(startsWithHeading(md('a', '####### seven is too many'))).toBe(false);
    expect(startsWithHeading(md('a', '    # indented code'))).toBe(false);
    expect(startsWithHeading(md('a', 'Text first\n\n# Heading later'))).toBe(false);
    expect(startsWithHeading(md('a', 'List\n- item'))).toBe(false);
    // A code cell's comment is not a heading, however it looks.
    expect(startsWithHeading(code('a', '# Title'))).toBe(false);
  });
});

describe('splitSections', () => {
  it('starts a section at each heading and keeps a preface before the first one', () => {
    const cells = [
      code('c0'),
      md('m1', 'Intro text'),
      md('h1', '# One'),
      code('c1'),
      code('c2'),
      md('h2', '## Two\nmore'),
      md('m2', 'plain'),
      md('h3', 'Three\n==='),
    ];
    expect(splitSections(cells)).toEqual([['c0', 'm1'], ['h1', 'c1', 'c2'], ['h2', 'm2'], ['h3']]);
  });

  it('makes one section per cell when there is no heading', () => {
    expect(splitSections([code('a'), md('b', 'text'), code('c')])).toEqual([['a'], ['b'], ['c']]);
    expect(splitSections([])).toEqual([]);
  });

  it('puts every cell in exactly one section, in order', () => {
    const cells = Array.from({ length: 40 }, (_, i) =>
      i % 7 === 3 ? md(`m${i}`, `# H${i}`) : i % 5 === 0 ? md(`m${i}`, 'p') : code(`c${i}`),
    );
    const sections = splitSections(cells);
    expect(sections.flat()).toEqual(cells.map((c) => c.id));
    // Every section after the preface opens with a heading cell.
    for (const ids of sections.slice(1)) expect(ids[0]).toMatch(/^m/);
    expect(sections).toHaveLength(1 + cells.filter(startsWithHeading).length);
  });
});

describe('sectionOf', () => {
  it('finds the section of a cell', () => {
    const sections = [['a', 'b'], ['c'], ['d', 'e']];
    expect(sectionOf(sections, 'e')).toBe(2);
    expect(sectionOf(sections, 'a')).toBe(0);
    expect(sectionOf(sections, 'zz')).toBe(-1);
    expect(sectionOf(sections, null)).toBe(-1);
  });
});
