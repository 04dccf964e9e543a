/**
 * Every valid TypeScript cell should behave as the same code does in Node. Each case below runs
 * twice: through the notebook's REPL (compileCell, one scope, cell after cell) and through Node
 * itself — the cells' TypeScript joined into one program, stripped by sucrase with its default
 * options (not the kernel's), and run as the body of an async function. The printed lines, the
 * error (if any) and, where asked, the value of the last expression must agree. Nothing here
 * states an expected output by hand: Node is the reference.
 */
import { format, inspect } from 'node:util';
import vm from 'node:vm';
import { transform } from 'sucrase';
import { describe, expect, it } from 'vitest';
import { compileCell, declareNames, RunControl } from './execute';

interface Case {
  name: string;
  /** REPL cells, run one after another on one scope. */
  cells: string[];
  /**
   * Also compare the last cell's value (`Out`) with Node's completion value of the whole program
   * (vm.Script's result). Only for cases without top-level `await`, which a script cannot hold.
   */
  out?: boolean;
  /**
   * How Node sees several cells: joined one after the other (default), or each later cell in a
   * block inside the previous one, for cases where a later cell declares a `let`/`const` name
   * again (a fresh binding that shadows the old one; one program could not declare it twice).
   */
  node?: 'joined' | 'nested';
}

interface Outcome {
  lines: string[];
  /** Name of the error that stopped the run, if one did. */
  error?: string;
  out?: string;
}

const cases: Case[] = [
  {
    name: 'await as a brace-less for body (the reported SyntaxError)',
    cells: [
      'let n = 0;\nasync function step() { n++; console.log("step", n) }\nfor (let i = 0; i < 3; i++) await step();\nconsole.log(n)',
    ],
  },
  {
    name: 'brace-less while and do-while bodies that await, without semicolons',
    cells: [
      'let k = 0\nwhile (k < 3) k = await Promise.resolve(k + 1)\ndo await null; while (k-- > 1)\nconsole.log(k)',
    ],
  },
  {
    name: 'a loop whose brace-less body is another brace-less loop that awaits',
    cells: [
      'const log = async (...v: unknown[]) => console.log(...v)\nfor (let i = 0; i < 2; i++) for (let j = 0; j < 2; j++) await log(i, j)\nfor (const a of [1, 2]) for (const b of "xy") print(a, b)',
    ],
  },
  {
    name: 'brace-less if / else if / else chains inside loops',
    cells: [
      'const note = async (s: string) => console.log(s)\nfor (let i = 0; i < 6; i++) if (i % 3 === 0) console.log("fizz", i); else if (i % 3 === 1) await note("one " + i); else for (let j = 0; j < 2; j++) if (j) await note("j"); else print("not j")',
    ],
  },
  {
    name: 'labelled break and continue, a labelled block, a labelled loop as a loop body',
    cells: [
      'outer: for (let i = 0; i < 3; i++) { for (let j = 0; j < 3; j++) { if (j === 1) continue outer; if (i === 2) break outer; console.log(i, j) } }\nblk: { console.log("in block"); if (Math.random() < 2) break blk; console.log("never") }\nfor (let i = 0; i < 2; i++) inner: for (const j of [0, 1, 2]) { if (j === 1) continue inner; await null; console.log("inner", i, j) }',
    ],
  },
  {
    name: 'a labelled top-level while with a brace-less if/else body',
    cells: ['let c = 0\nlbl: while (true) if (++c > 2) break lbl; else await null\nconsole.log(c)'],
  },
  {
    name: 'for await over an async generator and over an array of promises',
    cells: [
      'async function* gen() { for (let i = 0; i < 3; i++) yield await Promise.resolve(i * 10) }\nfor await (const v of gen()) console.log(v)\nfor await (const v of [Promise.resolve("a"), "b", new Promise((r) => setTimeout(() => r("c"), 1))]) console.log(v)',
    ],
  },
  {
    name: 'generators: yield in brace-less loops, yield*, a generator-driven loop',
    cells: [
      'function* take(n: number) { let i = 0; while (i < n) yield i++ }\nfunction* evens() { for (const v of take(10)) if (v % 2 === 0) yield v }\nfunction* d() { let i = 0; do yield i; while (++i < 3); yield* [7, 8] }\nconsole.log([...evens()], [...d()])',
      'function* fib() { let [a, b] = [0, 1]; while (true) { yield a; [a, b] = [b, a + b] } }\nconst seq: number[] = []\nfor (const f of fib()) { if (f > 50) break; seq.push(f) }\nconsole.log(seq.join(","))',
    ],
  },
  {
    name: 'async generators awaiting and yielding in loops, consumed in a later cell',
    cells: [
      'async function* ticks(n: number) { let i = 0; while (i < n) { await new Promise((r) => setTimeout(r, 1)); yield i++ } }',
      'const got: number[] = []\nfor await (const t of ticks(3)) got.push(t)\nconst it = ticks(2)\nconsole.log(got, await it.next(), await it.next(), await it.next())',
    ],
  },
  {
    name: 'destructuring declarations: defaults, holes, rest, nested patterns',
    cells: [
      'const { a = 1, b: { c, d = [2] } = { c: 0 }, ...rest } = { b: { c: 3 }, e: 4, f: 5 }\nconst [first, , third = "def", ...others] = [10, 20, undefined, 40, 50]\nlet [[x1, x2] = [1, 2], { y1 } = { y1: "y" }] = [] as any[]',
      'console.log(a, c, d, rest, first, third, others, x1, x2, y1)',
    ],
  },
  {
    name: 'classes with private fields and methods, static blocks, getters, parameter properties',
    cells: [
      'class Counter {\n  #count = 0\n  static #instances = 0\n  static { Counter.#instances = 100 }\n  constructor(public label: string) { Counter.#instances++ }\n  #bump() { return ++this.#count }\n  inc() { return this.#bump() }\n  get count() { return this.#count }\n  static get instances() { return Counter.#instances }\n  static has(o: object) { return #count in o }\n}',
      'const ctr = new Counter("c")\nctr.inc(); ctr.inc()\nconsole.log(ctr.label, ctr.count, Counter.instances, Counter.has(ctr), Counter.has({}))',
    ],
  },
  {
    name: 'inheritance, super getters and static factories',
    cells: [
      'class A { constructor(protected n: number) {} get double() { return this.n * 2 } static make() { return new this(2) } }\nclass B extends A { get double() { return super.double + 1 } }\nconsole.log(B.make().double, new B(5) instanceof A, B.name)',
    ],
  },
  {
    name: 'enums: numeric, string and const, used in a later cell',
    cells: [
      'enum Dir { Up = 1, Down, Left, Right }\nenum Col { Red = "RED", Green = "GREEN" }\nconst enum Flag { A = 1 << 0, B = 1 << 1 }',
      'console.log(Dir.Down, Dir[3], Col.Green, Flag.A | Flag.B, Object.keys(Col), Object.keys(Dir))',
    ],
  },
  {
    name: 'a comma expression as the last expression is Out',
    cells: ['let q = 1; q++, q * 10'],
    out: true,
  },
  {
    name: 'an object literal as the last expression is Out',
    cells: ['const o = { k: 1 };\n({ ...o, m: [2, 3], n: { deep: true } })'],
    out: true,
  },
  {
    name: 'a call after declarations is Out',
    cells: ['function sq(x: number) { return x * x }\nconst seven = 7\nsq(seven) + 0.5'],
    out: true,
  },
  {
    name: 'var declared again in the same cell and in a later cell keeps its value',
    cells: [
      'var v = 1; var v; console.log(v); var v = 2; console.log(v)',
      'var v; console.log(v); var v = v + 1; console.log(v)',
    ],
  },
  {
    name: 'var in a loop head or block belongs to the top level, and is seen by the next cell',
    cells: [
      'for (var i = 0, lim = 3; i < lim; i++) {}\nif (i) { var inBlock = "b" }\nfor (var key in { p: 1, q: 2 }) ;\nfor (var [ka, kb] of [[1, 2]]) ;\nconst fs: (() => number)[] = []\nfor (var vi = 0; vi < 3; vi++) fs.push(() => vi)',
      'console.log(i, lim, inBlock, key, ka, kb, fs.map((f) => f()))',
    ],
  },
  {
    name: 'var as a brace-less if/else body, in switch cases, under a label, in try/catch/finally',
    cells: [
      'if (Math.random() < 2) var x1 = 1; else var y1 = 2\nswitch (1) { case 1: var sw = "case" }\nL: var lv = 3\ntry { var tv = 1; throw 0 } catch { var cv = 2 } finally { var fv = 3 }\nfor (var i2 = 0, j2; i2 < 1; i2++) ;\nfor (var { a: pa, b: [pb] = [9] } of [{ a: 1 }]) ;\nfor (let i = 0; i < 2; i++) var acc = i',
      'console.log(x1, y1, sw, lv, tv, cv, fv, i2, j2, pa, pb, acc)',
    ],
  },
  {
    name: 'TypeScript-only syntax between statements: generics, as, satisfies, !, overloads, abstract',
    cells: [
      'interface Shape { area(): number }\ntype Pair<T> = [T, T]\nabstract class Base implements Shape { abstract area(): number; describe() { return `${this.constructor.name} ${this.area().toFixed(1)}` } }\nclass Sq extends Base { constructor(private readonly side: number) { super() } area() { return this.side ** 2 } }\nfunction pick(x: string): string\nfunction pick(x: number): number\nfunction pick(x: string | number) { return x }\nconst id = <T,>(v: T): T => v\nconst pair: Pair<number> = [1, 2] as Pair<number>\nconst conf = { n: 1 } satisfies Record<string, number>\nlet maybe: Sq | undefined = new Sq(3)\ndeclare const nothing: number\nconsole.log(maybe!.describe(), pick("s"), pick(2), id<string>("id"), pair, conf.n, (maybe as Shape).area())',
    ],
  },
  {
    name: 'a labelled block as a brace-less loop body',
    cells: [
      'for (let i = 0; i < 3; i++) body: { if (i === 1) break body; await null; console.log("body", i) }',
    ],
  },
  {
    name: 'a parenthesised last expression with a semicolon and a comment is Out',
    cells: ['const base2 = 2;\n(base2 ** 10, { pow: base2 ** 3 }); // the object is shown'],
    out: true,
  },
  {
    name: 'var and function hoisting within a cell',
    cells: ['console.log(typeof hv, hv, h())\nvar hv = 1\nfunction h() { return "hoisted" }'],
  },
  {
    name: 'let in a later cell declares a name again (a new binding, as in a nested block)',
    cells: [
      'let r = 1\nconst kind = "const"\nconsole.log(r, kind)',
      'let r = "two"\nlet kind = { now: "let" }\nconsole.log(r, kind)',
      'const r = [3]\nlet kind\nconsole.log(r, kind)',
    ],
    node: 'nested',
  },
  {
    name: 'BigInt literals and arithmetic',
    cells: [
      'const big = 2n ** 64n\nconst mixed = big / 3n + BigInt(7)\nconsole.log(big, mixed, typeof big, big > 10, 0x1fn, -5n % 3n)\nbig % 1000n',
    ],
    out: true,
  },
  {
    name: 'arrow functions that await inside loops',
    cells: [
      'const delay = (v: number) => new Promise<number>((r) => setTimeout(() => r(v), 1))\nconst sumAll = async (xs: number[]) => { let s = 0; for (const x of xs) s += await delay(x); return s }\nconsole.log(await sumAll([1, 2, 3]))\nconst results = await Promise.all([1, 2].map(async (x) => { for (let i = 0; i < 2; i++) x = await delay(x * 2); return x }))\nconsole.log(results)',
    ],
  },
  {
    name: 'do-while without braces, with and without semicolons',
    cells: ['let dd = 0\ndo dd += 2; while (dd < 7)\ndo dd--\nwhile (dd > 5)\nconsole.log(dd)'],
  },
  {
    name: 'switch inside loops, with continue, break and blocks in cases',
    cells: [
      'for (const x of [1, 2, 3, 4]) switch (x) { case 1: console.log("one"); break; case 2: continue; case 3: { console.log("three"); break } default: console.log("other", x) }\nlet w = 0\nwhile (w < 3) switch (w++) { case 0: await null; print("zero"); break; default: print("w", w) }',
    ],
  },
  {
    name: 'try/catch/finally inside loops with continue',
    cells: [
      'for (let i = 0; i < 4; i++) { try { if (i === 1) continue; if (i === 2) throw new Error("e" + i); console.log("try", i) } catch (e) { console.log("catch", (e as Error).message); continue } finally { console.log("finally", i) } console.log("after", i) }\nfor (const x of [1, 2]) try { await Promise.reject(x) } catch (e) { print("caught", e) }',
    ],
  },
  {
    name: 'optional chaining and nullish coalescing',
    cells: [
      'const cfg: { a?: { b?: number[] }; f?: () => string; g?: () => string } = { a: { b: [1] }, g: () => "g" }\nconsole.log(cfg.a?.b?.[0], cfg.f?.(), cfg.g?.(), cfg.a?.b?.[5] ?? "dflt", null ?? 0 ?? 1)\nlet z: number | undefined; z ??= 5; z ||= 6; z &&= z + 1; console.log(z)',
    ],
  },
  {
    name: 'template literals containing await',
    cells: [
      'const who = Promise.resolve("ada")\nconsole.log(`hi ${await who}, ${`nested ${await Promise.resolve(1 + 1)}`}`)',
    ],
  },
  {
    name: 'await in the default parameters of an async arrow is a SyntaxError, as in Node',
    cells: ['console.log("not run")\nconst f = async (x = await 1) => x'],
  },
  {
    name: 'default parameters of async arrows that use awaited values',
    cells: [
      'const base = await Promise.resolve(5)\nconst add = async (x = base, y = x * 2) => { await null; return x + y }\nconsole.log(await add(), await add(1))',
    ],
  },
  {
    name: 'a declaration ending the cell with an await and no semicolon',
    cells: ['const fortyOne = await Promise.resolve(41)', 'console.log(fortyOne + 1)'],
  },
  {
    name: 'a brace-less loop body ending the cell with an await and no semicolon',
    cells: ['let t = 0\nfor (; t < 2; t++) await null', 'console.log(t)'],
  },
  {
    name: 'an error thrown from a loop stops the cell after the lines before it',
    cells: [
      'console.log("before")\nfor (const x of [1]) await Promise.reject(new TypeError("bad " + x))\nconsole.log("after")',
    ],
  },
  {
    name: 'async arrows started in a brace-less loop body',
    cells: [
      'for (const x of [1, 2]) (async () => { await null; console.log("inner", x) })()\nawait new Promise((r) => setTimeout(r, 5))\nconsole.log("done")',
    ],
  },
  {
    name: 'a class declared again in a later cell replaces the old one',
    cells: [
      'class Pt { constructor(public x = 0) {} }\nconst p1 = new Pt(1)',
      'class Pt { constructor(public x = 0, public y = 0) {} }\nconsole.log(p1, new Pt(2, 3), p1 instanceof Pt)',
    ],
    node: 'nested',
  },
];

describe('cells run as the same code runs in Node', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const node = await runInNode(c);
    const repl = await runInRepl(c);
    expect(repl).toEqual(node);
    // A case that prints nothing would compare nothing.
    expect(node.lines.length + (node.error ? 1 : 0) + (c.out ? 1 : 0)).toBeGreaterThan(0);
  });
});

/** A console and a print that record what they are given, formatted as Node's console does. */
function recorder() {
  const lines: string[] = [];
  const log = (...values: unknown[]) => void lines.push(format(...values));
  return { lines, globals: { console: { log, info: log, warn: log, error: log }, print: log } };
}

const AsyncFunction = async function () {}.constructor as new (
  ...parameters: string[]
) => (...args: unknown[]) => Promise<unknown>;

async function runInNode(c: Case): Promise<Outcome> {
  const source =
    c.node === 'nested'
      ? c.cells.reduceRight((inner, cell) => `${cell}\n{\n${inner}\n}`)
      : c.cells.join('\n');
  const js = transform(source, { transforms: ['typescript'] }).code;
  const recorded = recorder();
  const outcome: Outcome = { lines: recorded.lines };
  try {
    const body = new AsyncFunction('console', 'print', js);
    await body(recorded.globals.console, recorded.globals.print);
  } catch (error) {
    outcome.error = errorName(error);
  }
  if (c.out) {
    // Node's own completion value: the program run as a script in a fresh context.
    const quiet = recorder();
    outcome.out = inspect(vm.runInNewContext(js, { ...quiet.globals, setTimeout }));
  }
  return outcome;
}

async function runInRepl(c: Case): Promise<Outcome> {
  const recorded = recorder();
  const scope = Object.create(recorded.globals) as Record<string, unknown>;
  const outcome: Outcome = { lines: recorded.lines };
  let value: unknown;
  try {
    for (const [i, source] of c.cells.entries()) {
      const cell = compileCell(source, i + 1);
      declareNames(scope, cell.declaredNames);
      value = await cell.run(scope, new RunControl(null));
    }
  } catch (error) {
    outcome.error = errorName(error);
  }
  if (c.out) outcome.out = inspect(value);
  return outcome;
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : `non-error ${inspect(error)}`;
}
