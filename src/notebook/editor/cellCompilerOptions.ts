/**
 * How the editor type-checks a cell, shared by Monaco's TypeScript worker and the tests that
 * check the cell API declarations with the real compiler.
 *
 * Cells are top-level-await scripts that may declare a name another cell declared too (the kernel
 * puts top-level names on one shared scope). Checking each cell as its own module gives both:
 * `await` at top level is legal in a module, and a module's names cannot clash with another's.
 * Plain numbers instead of TypeScript's enums keep the compiler out of the page bundle.
 */

/** ts.ScriptTarget.ESNext / ts.ModuleKind.ESNext / ts.ModuleDetectionKind.Force */
const ESNEXT = 99;
const MODULE_DETECTION_FORCE = 3;

export const CELL_COMPILER_OPTIONS = {
  target: ESNEXT,
  module: ESNEXT,
  moduleDetection: MODULE_DETECTION_FORCE,
  // Cells run in the kernel's worker: no DOM.
  lib: ['esnext', 'webworker'],
  // Chapters are written like their Python originals (`forward(x) { … }` without annotations).
  strict: false,
  noImplicitAny: false,
  allowUnreachableCode: true,
  allowUnusedLabels: true,
  allowNonTsExtensions: true,
  noEmit: true,
} as const;

/**
 * Diagnostics that are wrong for notebook cells: 1375/1378 top-level await in a non-module (the
 * kernel runs every cell as async), 2451/2300 redeclared names (cells may redefine names),
 * 1108 a top-level `return` (harmless in the kernel's wrapper function), 1208 isolatedModules,
 * and 6133/6196/6198 "declared but never read" (other cells read them).
 */
export const IGNORED_CELL_DIAGNOSTICS = [
  1375, 1378, 2451, 2300, 1108, 1208, 6133, 6196, 6198,
] as const;
