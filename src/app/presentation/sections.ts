/**
 * Splits a notebook into presentation sections: a section starts at every markdown cell whose
 * text begins with a heading; without any heading each cell is its own section.
 */

/** The cell fields splitting reads (a notebook Cell has them). */
export interface SectionCell {
  id: string;
  type: 'code' | 'markdown';
  source: string;
}

/** ATX heading (`# Title` … `###### Title`), up to three spaces of indent as in CommonMark. */
const ATX_HEADING = /^ {0,3}#{1,6}(?:[ \t]|$)/;
/** Setext heading: a text line underlined with `===` or `---`. */
const SETEXT_HEADING = /^ {0,3}\S.*\n {0,3}(?:=+|-+)[ \t]*(?:\n|$)/;

export function startsWithHeading(cell: SectionCell): boolean {
  if (cell.type !== 'markdown') return false;
  // Leading blank lines do not count as content: the first line with text decides.
  const text = cell.source.replace(/^(?:[ \t]*\r?\n)+/, '').replace(/\r\n/g, '\n');
  return ATX_HEADING.test(text) || SETEXT_HEADING.test(text);
}

/** The cell ids of each section, in order; cells before the first heading form a section too. */
export function splitSections(cells: readonly SectionCell[]): string[][] {
  if (!cells.some(startsWithHeading)) return cells.map((cell) => [cell.id]);
  const sections: string[][] = [];
  for (const cell of cells) {
    const current = sections[sections.length - 1];
    if (!current || startsWithHeading(cell)) sections.push([cell.id]);
    else current.push(cell.id);
  }
  return sections;
}

/** The index of the section holding `cellId`, or -1. */
export function sectionOf(sections: readonly (readonly string[])[], cellId: string | null): number {
  if (cellId === null) return -1;
  return sections.findIndex((ids) => ids.includes(cellId));
}
