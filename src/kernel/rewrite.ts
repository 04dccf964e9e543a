/**
 * Rewrites a cell's JavaScript so that it runs like a REPL entry.
 *
 * - Top-level `const`/`let`/`var`, classes and functions become properties of the notebook's scope
 *   object, so later cells see them and may declare the same names again.
 * - The cell body runs inside `with (scope)` in an async arrow function: top-level `await` works and
 *   names resolve to the scope first, then to the cell API globals behind it.
 * - The last expression statement is returned (Jupyter's `Out[n]`), unless it is an assignment.
 * - Every loop iteration and every `await` calls the kernel's interrupt check, so a runaway loop
 *   or a long await can be stopped without killing the kernel.
 *
 * `with` needs sloppy-mode code, which is why the cell is compiled with the Function constructor
 * and not as a module.
 */
import { parse, type Node as AcornNode, type Program } from 'acorn';
import MagicString from 'magic-string';
import { CellSyntaxError } from './cell-errors';

export interface RewrittenCell {
  /** Function body taking (`__scope`, `__k`) and returning a promise of the cell's value. */
  body: string;
  /** Names the cell declares at top level (created on the scope before the cell runs). */
  declaredNames: string[];
  /** Lines the wrapper adds before the cell's line 1 inside the function body. */
  wrapperLines: number;
}

export const SCOPE_NAME = '__scope';
export const KERNEL_NAME = '__k';

interface EsNode extends AcornNode {
  [key: string]: unknown;
}

const LOOP_TYPES = new Set([
  'ForStatement',
  'ForInStatement',
  'ForOfStatement',
  'WhileStatement',
  'DoWhileStatement',
]);

export function rewriteCell(js: string): RewrittenCell {
  let program: Program;
  try {
    program = parse(js, {
      ecmaVersion: 'latest',
      sourceType: 'module',
      allowAwaitOutsideFunction: true,
      locations: true,
    });
  } catch (error) {
    throw CellSyntaxError.fromParser(error, js);
  }

  const out = new MagicString(js);
  const declared = new Set<string>();
  const hoisted: string[] = [];
  const statements = program.body as unknown as EsNode[];

  for (const statement of statements) {
    switch (statement.type) {
      case 'ImportDeclaration':
      case 'ExportNamedDeclaration':
      case 'ExportDefaultDeclaration':
      case 'ExportAllDeclaration': {
        const line = statement.loc?.start.line ?? 1;
        const column = (statement.loc?.start.column ?? 0) + 1;
        throw new CellSyntaxError(
          'import and export are not available in cells: torch, tf and the rest of the cell API are already in scope',
          line,
          column,
        );
      }
      case 'VariableDeclaration':
        rewriteDeclaration(statement, out, declared);
        break;
      case 'FunctionDeclaration': {
        const name = (statement.id as { name: string }).name;
        declared.add(name);
        hoisted.push(`${SCOPE_NAME}.${name} = ${name};`);
        break;
      }
      case 'ClassDeclaration': {
        const name = (statement.id as { name: string }).name;
        declared.add(name);
        out.prependRight(statement.start, `;${name} = `);
        out.appendLeft(statement.end, ';');
        break;
      }
    }
  }

  instrument(program as unknown as EsNode, out);

  const last = statements[statements.length - 1];
  if (last?.type === 'ExpressionStatement') {
    const expression = last.expression as EsNode;
    if (expression.type !== 'AssignmentExpression') {
      out.prependRight(expression.start, 'return (');
      out.appendLeft(expression.end, ')');
    }
  }

  const prologue = `with (${SCOPE_NAME}) { return (async () => { ${hoisted.join(' ')}`;
  const body = `${prologue}\n${out.toString()}\n})(); }`;
  return { body, declaredNames: [...declared], wrapperLines: 1 };
}

/** `const a = 1, {b} = o;` → `;(a = 1), ({b} = o);` with the names recorded. */
function rewriteDeclaration(node: EsNode, out: MagicString, declared: Set<string>): void {
  const declarators = node.declarations as EsNode[];
  out.overwrite(node.start, declarators[0].start, ';(');
  declarators.forEach((declarator, i) => {
    const id = declarator.id as EsNode;
    collectPatternNames(id, declared);
    if (!declarator.init) out.appendLeft(id.end, ' = undefined');
    if (i > 0) out.prependRight(declarator.start, '(');
    out.appendLeft(declarator.end, ')');
  });
  if (!out.original.slice(node.start, node.end).trimEnd().endsWith(';')) {
    out.appendLeft(node.end, ';');
  }
}

function collectPatternNames(pattern: EsNode, names: Set<string>): void {
  switch (pattern.type) {
    case 'Identifier':
      names.add(pattern.name as string);
      break;
    case 'ObjectPattern':
      for (const property of pattern.properties as EsNode[]) {
        collectPatternNames(
          (property.type === 'RestElement' ? property.argument : property.value) as EsNode,
          names,
        );
      }
      break;
    case 'ArrayPattern':
      for (const element of pattern.elements as (EsNode | null)[]) {
        if (element) collectPatternNames(element, names);
      }
      break;
    case 'AssignmentPattern':
      collectPatternNames(pattern.left as EsNode, names);
      break;
    case 'RestElement':
      collectPatternNames(pattern.argument as EsNode, names);
      break;
  }
}

/** Adds the interrupt check to every loop body and around every await, at any depth. */
function instrument(root: EsNode, out: MagicString): void {
  visit(root, (node) => {
    if (LOOP_TYPES.has(node.type)) {
      const body = node.body as EsNode;
      if (body.type === 'BlockStatement') {
        out.appendLeft(body.start + 1, `${KERNEL_NAME}.tick();`);
      } else {
        out.prependRight(body.start, `{${KERNEL_NAME}.tick();`);
        out.appendLeft(body.end, '}');
      }
    } else if (node.type === 'AwaitExpression') {
      out.prependRight(node.start, `${KERNEL_NAME}.after(`);
      out.appendLeft(node.end, ')');
    }
  });
}

function visit(node: EsNode, onNode: (node: EsNode) => void): void {
  onNode(node);
  for (const key of Object.keys(node)) {
    if (key === 'loc') continue;
    const value = node[key];
    if (Array.isArray(value)) {
      for (const child of value) if (isNode(child)) visit(child, onNode);
    } else if (isNode(value)) {
      visit(value, onNode);
    }
  }
}

function isNode(value: unknown): value is EsNode {
  return typeof value === 'object' && value !== null && typeof (value as EsNode).type === 'string';
}
