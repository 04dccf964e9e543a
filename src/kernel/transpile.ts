/**
 * Turns a cell's TypeScript into JavaScript. Sucrase strips types without changing line numbers,
 * so positions in the JavaScript map back to the cell's lines one to one.
 */
import { transform } from 'sucrase';
import { CellSyntaxError } from './cell-errors';

export function transpileCell(source: string): string {
  try {
    return transform(source, {
      transforms: ['typescript'],
      keepUnusedImports: true,
      disableESTransforms: true,
      production: true,
    }).code;
  } catch (error) {
    throw CellSyntaxError.fromParser(error, source);
  }
}
