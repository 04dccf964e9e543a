/**
 * Rewrites a cell's JavaScript so that it runs like a REPL entry.
 *
 * - Top-level `const`/`let`/`var`, classes and functions become properties of the notebook's scope
 *   object, so later cells see them and may declare the same names again. A `var` nested in a
 *   top-level block or loop head (`for (var i = 0; …)`) belongs to the cell's top level too, as it
 *   would in Node, so it becomes a scope property as well.
 * - The cell body runs inside `with (scope)` in an async arrow function: top-level `await` works and
 *   names resolve to the scope first, then to the cell API globals behind it.
 * - The last expression statement is returned (Jupyter's `Out[n]`), unless it is an assignment.
 * - Every loop iteration and every `await` calls the kernel's interrupt check, so a runaway loop
 *   or a long await can be stopped without killing the kernel.
 *
 * `with` needs sloppy-mode code, which is why the cell is compiled with the Function constructor
 * and not as a module.
 *
 * Several edits often land on the same offset (a brace-less loop body that starts with `await`,
 * a declaration whose initialiser ends the cell). All edits are made in one walk that visits a
 * node before its children, and every wrapper goes through `open`/`close`, which keep wrappers
 * nested: an outer node's opening text comes before an inner node's at the same offset, and its
 * closing text after.
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

/** Nodes that start a new `var` scope: a `var` inside them stays theirs. */
const FUNCTION_SCOPES = new Set([
  'FunctionDeclaration',
  'FunctionExpression',
  'ArrowFunctionExpression',
  'StaticBlock',
]);

/** Parents whose statement lists may hold a declaration rewritten as `;(…);`. */
const STATEMENT_LISTS = new Set(['Program', 'BlockStatement', 'SwitchCase', 'StaticBlock']);

/** Where a declaration being rewritten into assignments stands. */
type DeclarationSite = 'list' | 'single' | 'for-init' | 'for-left';

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

  const rewriter = new CellRewriter(js);
  rewriter.rewrite(program as unknown as EsNode);
  const prologue = `with (${SCOPE_NAME}) { return (async () => { ${rewriter.hoisted.join(' ')}`;
  const body = `${prologue}\n${rewriter.out.toString()}\n})(); }`;
  return { body, declaredNames: [...rewriter.declared], wrapperLines: 1 };
}

class CellRewriter {
  readonly out: MagicString;
  readonly declared = new Set<string>();
  readonly hoisted: string[] = [];

  constructor(private readonly js: string) {
    this.out = new MagicString(js);
  }

  rewrite(program: EsNode): void {
    const statements = program.body as EsNode[];
    const last = statements[statements.length - 1];
    for (const statement of statements) {
      this.rewriteTopLevel(statement, statement === last);
      this.visit(statement, program, 'body', false);
    }
  }

  /**
   * Text that goes before `index` and wraps something starting there. Nodes are visited outside
   * in, so appending to the right keeps the outer wrapper's opening first.
   */
  private open(index: number, text: string): void {
    this.out.appendRight(index, text);
  }

  /** Text that goes after `index` and closes a wrapper: prepending keeps the inner one first. */
  private close(index: number, text: string): void {
    this.out.prependLeft(index, text);
  }

  /** Replaces source text, keeping its line breaks so the cell's line numbers stay right. */
  private replace(start: number, end: number, text: string): void {
    const newlines = this.js.slice(start, end).split('\n').length - 1;
    // `update` (not `overwrite`) keeps wrappers already opened at `start`.
    if (end > start) this.out.update(start, end, text + '\n'.repeat(newlines));
    else this.open(start, text);
  }

  private rewriteTopLevel(statement: EsNode, isLast: boolean): void {
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
        this.rewriteDeclaration(statement, 'list');
        break;
      case 'FunctionDeclaration': {
        const name = (statement.id as { name: string }).name;
        this.declared.add(name);
        this.hoisted.push(`${SCOPE_NAME}.${name} = ${name};`);
        break;
      }
      case 'ClassDeclaration': {
        const name = (statement.id as { name: string }).name;
        this.declared.add(name);
        this.open(statement.start, `;${name} = `);
        this.close(statement.end, ';');
        break;
      }
      case 'ExpressionStatement': {
        const expression = statement.expression as EsNode;
        if (isLast && expression.type !== 'AssignmentExpression') {
          // The statement, not the expression: `({ a: 1 })` parses to an expression that starts
          // inside the parentheses, and `return (` must come before them.
          const end = this.js[statement.end - 1] === ';' ? statement.end - 1 : statement.end;
          this.open(statement.start, 'return (');
          this.close(end, ')');
        }
        break;
      }
    }
  }

  /** Walks the tree outside in; `inFunction` says whether a `var` here belongs to a function. */
  private visit(node: EsNode, parent: EsNode, key: string, inFunction: boolean): void {
    if (
      node.type === 'VariableDeclaration' &&
      node.kind === 'var' &&
      !inFunction &&
      parent.type !== 'Program'
    ) {
      this.rewriteDeclaration(node, declarationSite(parent, key));
    } else if (LOOP_TYPES.has(node.type)) {
      this.instrumentLoop(node);
    } else if (node.type === 'AwaitExpression') {
      this.open(node.start, `${KERNEL_NAME}.after(`);
      this.close(node.end, ')');
    }

    const childInFunction = inFunction || FUNCTION_SCOPES.has(node.type);
    for (const childKey of Object.keys(node)) {
      if (childKey === 'loc') continue;
      const value = node[childKey];
      if (Array.isArray(value)) {
        for (const child of value) {
          if (isNode(child)) this.visit(child, node, childKey, childInFunction);
        }
      } else if (isNode(value)) {
        this.visit(value, node, childKey, childInFunction);
      }
    }
  }

  /** Every iteration checks for an interrupt first; a brace-less body gets braces for that. */
  private instrumentLoop(loop: EsNode): void {
    const body = loop.body as EsNode;
    const tick = `${KERNEL_NAME}.tick();`;
    if (body.type === 'BlockStatement') {
      // Left of the first statement, so anything that statement opens comes after the check.
      this.out.appendLeft(body.start + 1, tick);
    } else {
      this.open(body.start, `{${tick}`);
      this.close(body.end, '}');
    }
  }

  /**
   * `const a = 1, {b} = o;` → `;(a = 1), ({b} = o);` with the names recorded. A `var` without an
   * initialiser assigns nothing, so redeclaring a `var` keeps its value (as in Node); a `let` or
   * `const` without one starts out `undefined` again, as a fresh binding would.
   */
  private rewriteDeclaration(node: EsNode, site: DeclarationSite): void {
    const declarators = node.declarations as EsNode[];
    const keepValue = node.kind === 'var';
    for (const declarator of declarators)
      collectPatternNames(declarator.id as EsNode, this.declared);

    if (site === 'for-left') {
      // `for (var x of xs)` → `for ((x) of xs)`; a pattern cannot take parentheses there.
      const id = declarators[0].id as EsNode;
      const parens = id.type === 'Identifier';
      this.replace(node.start, id.start, parens ? '(' : '');
      if (parens) this.close(id.end, ')');
      return;
    }

    const lead = site === 'list' ? ';(' : '(';
    this.replace(node.start, declarators[0].start, lead);
    if (site !== 'for-init' && !this.js.slice(node.start, node.end).trimEnd().endsWith(';')) {
      this.close(node.end, ';');
    }
    declarators.forEach((declarator, i) => {
      if (i > 0) this.open(declarator.start, '(');
      this.close(declarator.end, ')');
      if (!declarator.init && !keepValue) this.close(declarator.end, ' = undefined');
    });
  }
}

function declarationSite(parent: EsNode, key: string): DeclarationSite {
  if (parent.type === 'ForStatement' && key === 'init') return 'for-init';
  if ((parent.type === 'ForInStatement' || parent.type === 'ForOfStatement') && key === 'left') {
    return 'for-left';
  }
  return STATEMENT_LISTS.has(parent.type) ? 'list' : 'single';
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

function isNode(value: unknown): value is EsNode {
  return typeof value === 'object' && value !== null && typeof (value as EsNode).type === 'string';
}
