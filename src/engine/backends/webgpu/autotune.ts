/**
 * The autotuner's bookkeeping: kernel choices per shape class for every tuned family (matmul
 * variants, operand repacking, reduce and softmax row modes), held in memory and in a persistent
 * store (IndexedDB in the browser) keyed by adapter, so later page loads start tuned; plus the
 * matmul class keys.
 * A class runs its default until the work it has done equals what its tuning run would cost (or,
 * under the 'first-use' policy, from its first op); then its candidates are timed on a proxy of
 * the class (matmul-tune.ts) or on a copy of the op's own input (rowmode-tune.ts): by default a
 * slice at a time between the user's ops (tune-slices.ts), at first use all in the same batch.
 */
import type { TuningPolicy } from '../../backend';
import {
  matmulCandidates,
  REPACKS,
  ROW_MODES,
  type MatmulVariant,
  type Repack,
  type RowMode,
} from './variants';

/** The value type of each tuned family, by the key prefix its class keys start with. */
export interface TuneFamilies {
  mm: MatmulVariant;
  repack: Repack;
  reduce: RowMode;
  softmax: RowMode;
  /** The default variant of untuned classes, measured once per adapter (default-probe.ts). */
  'mm-default': MatmulVariant;
  /** The default repack choice of untuned classes (default-probe.ts). */
  'repack-default': Repack;
}

/** Where default-probe.ts's choices persist. */
export const PROBE_KEYS = {
  /** The default of classes every family can run. */
  plain: 'mm-default|plain',
  /** The default of classes only the register-blocked family can run (epilogues, gathers). */
  blocked: 'mm-default|blocked',
  /** How untuned classes read operands whose rows alias. */
  repack: 'repack-default|aliased',
} as const;

export type TuneFamily = keyof TuneFamilies;

/** A class key: the family, then `|` and the class (e.g. `reduce|1024x256|contiguous`). */
export type TuneKey<F extends TuneFamily = TuneFamily> = `${F}|${string}`;

/** What a key's family chooses between (`string` for keys whose family the type cannot see). */
export type ChoiceOf<K extends string> = K extends `${infer F}|${string}`
  ? F extends TuneFamily
    ? TuneFamilies[F]
    : string
  : string;

/** The values each family may hold; stored values outside them (an old version) are ignored. */
export type KnownChoices = { readonly [F in TuneFamily]?: readonly TuneFamilies[F][] };

/** Everything a backend can run: its matmul candidates, both repack choices and both row modes. */
export function knownChoices(subgroups: boolean): KnownChoices {
  return {
    mm: matmulCandidates(subgroups),
    repack: REPACKS,
    reduce: ROW_MODES,
    softmax: ROW_MODES,
    'mm-default': matmulCandidates(subgroups),
    'repack-default': REPACKS,
  };
}

/** Where tuned choices persist between sessions (IndexedDB in the browser, memory in Node). */
export interface TuneStore {
  /** Every stored choice (keys as given to `set`). */
  load(): Promise<Record<string, string>>;
  set(key: string, value: string): void;
}

/** A store that forgets everything when the process ends (Node, tests). */
export function memoryStore(initial: Record<string, string> = {}): TuneStore & {
  readonly entries: Record<string, string>;
} {
  const entries = { ...initial };
  return {
    entries,
    load: async () => ({ ...entries }),
    set: (key, value) => {
      entries[key] = value;
    },
  };
}

const DB_NAME = 'gpubook-autotune';
const DB_STORE = 'choices';

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/** Choices kept in IndexedDB under `prefix` (the adapter and kernel version), or null without it. */
export function indexedDbStore(prefix: string): TuneStore | null {
  if (typeof indexedDB === 'undefined') return null;
  const open = (): Promise<IDBDatabase> => {
    const req = indexedDB.open(DB_NAME, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(DB_STORE);
    return request(req);
  };
  let db: Promise<IDBDatabase> | null = null;
  const database = () => (db ??= open());
  return {
    async load() {
      const out: Record<string, string> = {};
      try {
        const store = (await database()).transaction(DB_STORE).objectStore(DB_STORE);
        const range = IDBKeyRange.bound(`${prefix}|`, `${prefix}|\uffff`);
        const [keys, values] = await Promise.all([
          request(store.getAllKeys(range)),
          request(store.getAll(range)),
        ]);
        keys.forEach((key, i) => (out[String(key).slice(prefix.length + 1)] = String(values[i])));
      } catch {
        // A private window or a blocked database: tune again, as in Node.
      }
      return out;
    },
    set(key, value) {
      void database()
        .then((d) => {
          d.transaction(DB_STORE, 'readwrite').objectStore(DB_STORE).put(value, `${prefix}|${key}`);
        })
        .catch(() => undefined);
    },
  };
}

/** A matmul's shape and how its operands are laid out (what decides the best variant). */
export interface MatmulClassInput {
  readonly batch: number;
  readonly m: number;
  readonly n: number;
  readonly k: number;
  /** 'k': A contiguous along k (row-major); 'm': along m (transposed); 's': other strides. */
  readonly aLayout: 'k' | 'm' | 's';
  /** 'n': B contiguous along n (row-major); 'k': along k (transposed); 's': other strides. */
  readonly bLayout: 'n' | 'k' | 's';
  /** The batch's products are summed into one output (a convolution's weight gradient). */
  readonly summed?: boolean;
  /**
   * Only the register-blocked family can run the product (an operand read through offset
   * tables, a fused bias / relu / NCHW epilogue, a batch sum), so only its members are timed:
   * another family's win on the plain proxy would run as the family's default instead.
   */
  readonly blockedOnly?: boolean;
  /**
   * An operand is read through offset tables (implicit-GEMM convolution): the class is timed on
   * a slice of the product itself (matmul-tune.ts), whose gathered loads a plain proxy misses.
   */
  readonly gathered?: boolean;
}

const bucket = (size: number): number => 2 ** Math.min(14, Math.ceil(Math.log2(Math.max(1, size))));

/** The class a product belongs to: power-of-two size buckets and the operand layouts. */
export function matmulClassKey(input: MatmulClassInput): TuneKey<'mm'> {
  const { m, n, k, aLayout, bLayout } = input;
  const batch = input.summed ? 'sum' : input.batch > 1 ? 'batched' : 'single';
  const family = input.blockedOnly && !input.summed ? '|blocked' : '';
  const gathered = input.gathered ? '|gather' : '';
  return `mm|${bucket(m)}x${bucket(n)}x${bucket(k)}|${aLayout}${bLayout}|${batch}${family}${gathered}`;
}

/** Products below this many multiply-adds run the default: tuning would cost more than it saves. */
export const MIN_TUNED_MACS = 1 << 20;

/**
 * The proxy a class is timed on: the product's own sizes (edge tiles matter), capped so a tuning
 * run stays short, with a few of its batches.
 */
export function proxyShape(input: MatmulClassInput): {
  batch: number;
  m: number;
  n: number;
  k: number;
} {
  // 512 rather than 256: a 256² proxy is only 16–64 workgroups of the bigger blocks, too few to
  // keep every core of a CPU emulation (or every unit of a GPU) busy, so it favoured small blocks
  // that lose on the full product (2048³: q16x4 at 53% of peak where q16x8 reaches 63–70%).
  // A short K (a 10000 x 100 x 10000 product) does little arithmetic per output, so its cost is
  // as much in storing a large output as in multiplying: its proxy gets a 1024² output, for the
  // same balance (and a run long enough to time steadily).
  // A narrow output (32 columns: a convolution's input gradient into 32 channels) keeps the
  // proxy's area rather than its side, so the proxy still has as many workgroups to spread.
  const cap = input.k <= 128 ? 1024 : 512;
  const m = Math.min(input.m, Math.max(cap, Math.floor((cap * cap) / Math.min(input.n, cap))));
  const n = Math.min(input.n, Math.max(cap, Math.floor((cap * cap) / Math.min(input.m, cap))));
  const k = Math.min(input.k, 512);
  // Enough batches to matter when the product is made of many small ones, few enough to be quick.
  // A summed product (a convolution's weight gradient) keeps at least 16 of its products: one
  // image's 64 x 800 x 81 product timed in ~3 ms chose by noise and missed how the kernel walks
  // the batch (s8x8@8x8 ran 331 ms in the CNN step where q16x4@16x4 takes 253).
  const budget = Math.floor((input.summed ? 2 ** 26 : 2 ** 21) / (m * n * k));
  const most = input.summed ? Math.min(32, Math.max(16, budget)) : Math.min(8, budget);
  const batch = Math.max(1, Math.min(input.batch, most));
  return { batch, m, n, k };
}

/** One candidate's outcome in a tuning run. */
export interface TrialResult<V extends string = MatmulVariant> {
  readonly variant: V;
  /** Best GPU time of its runs, in nanoseconds (Infinity when it failed or could not be timed). */
  readonly ns: number;
  /** Whether its output was checked and right (a float64 reference, or agreement of all modes). */
  readonly correct: boolean;
}

/** The fastest correct candidate, or null when none was both correct and timed. */
export function pickFastest<V extends string>(results: readonly TrialResult<V>[]): V | null {
  let best: TrialResult<V> | null = null;
  for (const r of results) {
    if (!r.correct || !Number.isFinite(r.ns)) continue;
    if (!best || r.ns < best.ns) best = r;
  }
  return best?.variant ?? null;
}

/** The family a key belongs to (its text before the first `|`). */
function familyOf(key: string): string {
  const bar = key.indexOf('|');
  return bar < 0 ? '' : key.slice(0, bar);
}

/**
 * Chosen values per class, from memory or the store, and which classes are being tuned. The
 * timing itself lives with the kernels (matmul-tune.ts, rowmode-tune.ts), which know how to
 * dispatch a variant.
 */
export class TuneCache {
  private readonly choices = new Map<string, string>();
  private readonly inFlight = new Map<string, Promise<void>>();
  /** Classes whose run found no usable choice this session: they keep the default, untried again. */
  private readonly abandoned = new Set<string>();
  /** Classes whose run waits for slices (tune-slices.ts), with how to cancel it. */
  private readonly queued = new Map<string, () => void>();
  /** Classes whose slices ran out of budget: they keep the default, unless tuned at first use. */
  private readonly spent = new Set<string>();
  /** Slices being timed: `settled` waits for them too. */
  private readonly slicing = new Set<Promise<void>>();
  /** Work each class still untuned has run with its default, in its family's units. */
  private readonly done = new Map<string, number>();
  /**
   * When a class starts its tuning run. 'amortized' (the default): once the work it has run with
   * its default reaches what the run would cost — the ski-rental rule, so a short notebook on a
   * slow adapter is not held up timing kernels it will hardly use — and then in slices between
   * user ops, within a share of the user's time and a budget (tune-slices.ts), so no op stalls.
   * 'first-use': at its first op, whole (benchmarks and timeit warm-ups, which measure the tuned
   * steady state).
   */
  policy: TuningPolicy = 'amortized';

  constructor(
    private readonly store: TuneStore,
    /** Values each family can run; stored choices outside them are ignored. */
    private readonly known: KnownChoices,
  ) {}

  /** Loads stored choices (once, when the backend starts). */
  async preload(): Promise<void> {
    const stored = await this.store.load();
    for (const [key, value] of Object.entries(stored)) {
      const allowed: readonly string[] | undefined = this.known[familyOf(key) as TuneFamily];
      if (allowed?.includes(value)) this.choices.set(key, value);
    }
  }

  get<K extends string>(key: K): ChoiceOf<K> | undefined {
    return this.choices.get(key) as ChoiceOf<K> | undefined;
  }

  /** Whether the class needs a tuning run (not chosen, not being tuned, not abandoned). */
  needsTuning(key: string): boolean {
    return (
      !this.choices.has(key) &&
      !this.inFlight.has(key) &&
      !this.queued.has(key) &&
      !this.abandoned.has(key) &&
      !(this.spent.has(key) && this.policy !== 'first-use')
    );
  }

  /**
   * Whether `key` should start its tuning run now. Each op of the class calls this with its own
   * `work` and the work the run would do (`trialWork`), in one unit per family (multiply-adds,
   * elements).
   */
  due(key: string, work: number, trialWork: number): boolean {
    // At first use a class waiting for slices is tuned whole now (a timed run stays honest).
    if (this.policy === 'first-use') this.queued.get(key)?.();
    if (!this.needsTuning(key)) return false;
    if (this.policy === 'first-use') return true;
    const total = (this.done.get(key) ?? 0) + work;
    this.done.set(key, total);
    return total >= trialWork;
  }

  /** Records a running tuning job; its result is set with `choose` (or `abandon`). */
  track(key: string, job: Promise<void>): void {
    const done = job.finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, done);
  }

  /** The class's slices ran out of budget: it keeps its default, but still tunes at first use. */
  overBudget(key: string): void {
    this.spent.add(key);
  }

  /** Records a run waiting for slices; `cancel` drops it (see `due`). */
  enqueued(key: string, cancel: () => void): void {
    this.queued.set(key, cancel);
  }

  /** The run of `key` no longer waits for slices (finished, dropped or cancelled). */
  dequeued(key: string): void {
    this.queued.delete(key);
  }

  /** Records a slice being timed, so `settled` waits for it. */
  background(job: Promise<void>): void {
    const done: Promise<void> = job.catch(() => undefined).finally(() => this.slicing.delete(done));
    this.slicing.add(done);
  }

  /** Whether the default policy times runs in slices rather than whole (tune-slices.ts). */
  get sliced(): boolean {
    return this.policy === 'amortized';
  }

  choose<K extends string>(key: K, value: ChoiceOf<K>): void {
    this.choices.set(key, value);
    this.store.set(key, value);
  }

  /** Gives up on a class for this session (nothing stored): it runs the default from now on. */
  abandon(key: string): void {
    this.abandoned.add(key);
  }

  /** Resolves once every running tuning job has finished (and every slice being timed). */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0 || this.slicing.size > 0) {
      await Promise.allSettled([...this.inFlight.values(), ...this.slicing]);
    }
  }

  /** The chosen value per class, as [key, value] text pairs (for reports and tests). */
  entries(): [string, string][] {
    return [...this.choices];
  }
}

/** A cache over `store` for everything a backend (with or without subgroups) can run. */
export function createTuneCache(store: TuneStore, subgroups: boolean): TuneCache {
  return new TuneCache(store, knownChoices(subgroups));
}
