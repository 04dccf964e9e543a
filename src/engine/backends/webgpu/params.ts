/**
 * Named parameter slots. Each WGSL kernel family declares its parameter layout once, here in
 * TypeScript: field names in slot order, each a u32, i32 or f32 word or a fixed-length list of
 * them. TypeScript writes fields by name (a wrong name does not compile; the word type comes from
 * the layout), and the family's WGSL reads the slot constants generated from the same layout
 * (`P(P_n)`, `PI(P_padH)`, `P(P_shape + d)`), appended to its source at compile time — so the
 * two sides cannot disagree about where a parameter lives.
 */
import { f32Bits, type ParamBlock } from './uniforms';

/** Words in one dispatch's parameter block (kernels/common.wgsl). */
const SLOT_WORDS = 64;

export type WordType = 'u32' | 'i32' | 'f32';
/** One word, or a list of `length` words. */
export type FieldSpec = WordType | readonly [WordType, number];
export type LayoutSpec = Readonly<Record<string, FieldSpec>>;

type ScalarField<L extends LayoutSpec> = {
  [K in keyof L]: L[K] extends WordType ? K : never;
}[keyof L] &
  string;
type ListField<L extends LayoutSpec> = {
  [K in keyof L]: L[K] extends readonly [WordType, number] ? K : never;
}[keyof L] &
  string;

function store(block: ParamBlock, type: WordType, index: number, value: number): void {
  if (type === 'f32') block.u32(index, f32Bits(value));
  else if (type === 'i32') block.i32(index, value);
  else block.u32(index, value);
}

export class ParamLayout<L extends LayoutSpec> {
  /** First word of each field. */
  readonly slots: { readonly [K in keyof L]: number };
  /** `const P_<field> = <slot>u;` for every field: what the family's WGSL reads. */
  readonly wgsl: string;
  readonly words: number;

  constructor(
    readonly family: string,
    readonly spec: L,
  ) {
    const slots: Record<string, number> = {};
    let next = 0;
    for (const [name, field] of Object.entries(spec)) {
      slots[name] = next;
      next += typeof field === 'string' ? 1 : field[1];
    }
    if (next > SLOT_WORDS) {
      throw new Error(`${family}: parameters take ${next} words, a block holds ${SLOT_WORDS}`);
    }
    this.words = next;
    this.slots = slots as { readonly [K in keyof L]: number };
    this.wgsl = Object.entries(slots)
      .map(([name, slot]) => `const P_${name} = ${slot}u;`)
      .join('\n');
  }

  /** The family's WGSL with its slot constants (appended: line numbers stay the file's own). */
  source(wgsl: string): string {
    return `${wgsl}\n// Parameter slots of ${this.family} (generated from its layout).\n${this.wgsl}\n`;
  }

  /** Writes into `block` by field name. */
  writer(block: ParamBlock): ParamWriter<L> {
    return new ParamWriter(this, block);
  }
}

/** Writes one dispatch's parameters by name; fields left unwritten read 0. */
export class ParamWriter<L extends LayoutSpec> {
  constructor(
    private readonly layout: ParamLayout<L>,
    private readonly block: ParamBlock,
  ) {}

  set(name: ScalarField<L>, value: number): this {
    store(this.block, this.layout.spec[name] as WordType, this.slot(name), value);
    return this;
  }

  /** Writes `values` into a list field, padding with `pad` to its length. */
  list(name: ListField<L>, values: readonly number[], pad = 0): this {
    const first = this.slot(name);
    const [type, length] = this.layout.spec[name] as readonly [WordType, number];
    if (values.length > length) {
      throw new Error(`${this.layout.family}: ${name} holds ${length} words, got ${values.length}`);
    }
    for (let i = 0; i < length; i++)
      store(this.block, type, first + i, i < values.length ? values[i] : pad);
    return this;
  }

  /** A name's slot; the types keep undeclared names out, this keeps them out of untyped callers. */
  private slot(name: string): number {
    const slot = this.layout.slots[name];
    if (slot === undefined) throw new Error(`${this.layout.family}: no parameter named ${name}`);
    return slot;
  }
}

/** Declares a family's parameter layout (field order is slot order). */
export function paramLayout<const L extends LayoutSpec>(family: string, spec: L): ParamLayout<L> {
  return new ParamLayout(family, spec);
}
