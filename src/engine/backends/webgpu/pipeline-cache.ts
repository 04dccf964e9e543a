/**
 * Compiles each kernel variant once (keyed by kernel name + specialization key), caches its
 * pipeline and bind group layout, and reports WGSL compile failures as errors naming the kernel.
 */

/**
 * How a kernel binds its buffers after binding 0 (the parameter slot): one letter per binding,
 * outputs first: `w` read-write storage, `r` read-only storage. `'wrr'` is one output, two inputs.
 */
export type BindingSignature = string;

export interface CompiledKernel {
  /** `name[key]`, used in every error message about this kernel. */
  readonly label: string;
  readonly pipeline: GPUComputePipeline;
  readonly layout: GPUBindGroupLayout;
  readonly signature: BindingSignature;
  /** Set once the asynchronous compile check has failed; later dispatches throw it at once. */
  error: Error | null;
}

/**
 * Thrown by `get` inside `withoutBlocking` for a kernel not compiled yet: its compile has started
 * off the main thread, and `ready` resolves once it is done (or failed: then `get` compiles it
 * synchronously and reports the error as usual).
 */
export class PipelinePending extends Error {
  constructor(
    label: string,
    readonly ready: Promise<void>,
  ) {
    super(`${label} is still compiling`);
  }
}

/** Bytes of one dispatch's parameter block: 64 u32 words (see kernels/common.wgsl). */
export const PARAM_SLOT_BYTES = 256;

export class PipelineCache {
  private readonly kernels = new Map<string, CompiledKernel>();
  private readonly layouts = new Map<BindingSignature, GPUBindGroupLayout>();
  private readonly pipelineLayouts = new Map<BindingSignature, GPUPipelineLayout>();
  private pending: Promise<void>[] = [];
  private failures: Error[] = [];
  /** Asynchronous compiles started by `withoutBlocking`, by kernel id. */
  private readonly compiling = new Map<string, Promise<void>>();
  private nonBlocking = false;
  /** Kernels whose asynchronous compile failed: compiled synchronously, which reports the error. */
  private readonly failedAsync = new Set<string>();

  constructor(
    private readonly device: GPUDevice,
    /** Prepended to every kernel source: the parameter block and shared helpers. */
    private readonly prelude: string,
  ) {}

  /**
   * The compiled kernel for (name, key). `build` (which expands the WGSL template) runs only on
   * the first request, so dispatches never build strings or shader modules.
   */
  get(name: string, key: string, signature: BindingSignature, build: () => string): CompiledKernel {
    const id = `${name}[${key}]`;
    const cached = this.kernels.get(id);
    if (cached) {
      if (cached.error) throw cached.error;
      return cached;
    }
    if (this.nonBlocking && !this.failedAsync.has(id)) {
      throw new PipelinePending(id, this.compileAsync(id, signature, build));
    }
    const layout = this.bindGroupLayout(signature);
    const source = this.source(build);
    // Validation errors of pipeline creation are asynchronous in WebGPU: capture them in an error
    // scope once per pipeline and surface them (named) at the next read or synchronize.
    this.device.pushErrorScope('validation');
    const module = this.device.createShaderModule({ code: source, label: id });
    const pipeline = this.device.createComputePipeline({
      label: id,
      layout: this.pipelineLayout(signature),
      compute: { module, entryPoint: 'main' },
    });
    const kernel: CompiledKernel = { label: id, pipeline, layout, signature, error: null };
    this.kernels.set(id, kernel);
    const check = this.device.popErrorScope().then(async (error) => {
      if (!error) return;
      const info = await module.getCompilationInfo();
      const details = info.messages
        .filter((m) => m.type === 'error')
        .slice(0, 5)
        .map((m) => `  line ${m.lineNum - this.preludeLines()}: ${m.message}`)
        .join('\n');
      kernel.error = new Error(
        `WGSL kernel ${id} failed to compile:\n${details || `  ${error.message}`}`,
      );
      this.failures.push(kernel.error);
    });
    this.pending.push(check);
    return kernel;
  }

  /**
   * Runs `fn` (which records dispatches) without compiling now: a kernel it needs that is not
   * compiled yet starts compiling asynchronously (createComputePipelineAsync) and `fn` is cut short
   * by a PipelinePending. What a tuning slice uses, so no user op waits on a compile (in a browser
   * it runs in the GPU process; Dawn in Node compiles on this thread, but in a task of its own).
   */
  withoutBlocking<T>(fn: () => T): T {
    this.nonBlocking = true;
    try {
      return fn();
    } finally {
      this.nonBlocking = false;
    }
  }

  /** Compiles a kernel asynchronously into the cache (once); resolves when done or failed. */
  private compileAsync(id: string, signature: BindingSignature, build: () => string) {
    let job = this.compiling.get(id);
    if (!job) {
      const layout = this.bindGroupLayout(signature);
      // Errors in the module also reject the compile: this scope only keeps them from the
      // device's uncaptured errors (the synchronous compile at next use reports them).
      this.device.pushErrorScope('validation');
      const module = this.device.createShaderModule({ code: this.source(build), label: id });
      void this.device.popErrorScope();
      job = this.device
        .createComputePipelineAsync({
          label: id,
          layout: this.pipelineLayout(signature),
          compute: { module, entryPoint: 'main' },
        })
        .then(
          (pipeline) => {
            this.kernels.set(id, { label: id, pipeline, layout, signature, error: null });
          },
          // A failed compile is compiled again synchronously at its next use, which names it.
          () => void this.failedAsync.add(id),
        )
        .finally(() => this.compiling.delete(id));
      this.compiling.set(id, job);
    }
    return job;
  }

  /** A kernel's full source: the prelude, after the body's WGSL directives. */
  private source(build: () => string): string {
    // WGSL directives (`enable subgroups;`) must precede every declaration, the prelude's too.
    const body = build();
    const directives = body.match(/^enable [a-z0-9_, ]+;$/gm) ?? [];
    return `${directives.join(' ')}${this.prelude}\n${body.replace(/^enable [a-z0-9_, ]+;$/gm, '')}`;
  }

  /** Waits for outstanding compile checks; throws the first failure not yet reported. */
  async settle(): Promise<void> {
    const pending = this.pending;
    this.pending = [];
    await Promise.all(pending);
    const failure = this.failures.shift();
    if (failure) {
      this.failures = [];
      throw failure;
    }
  }

  /** Labels (`name[key]`) of every compiled kernel, for tests and diagnostics. */
  labels(): string[] {
    return [...this.kernels.keys()];
  }

  private preludeLines(): number {
    return this.prelude.split('\n').length;
  }

  private bindGroupLayout(signature: BindingSignature): GPUBindGroupLayout {
    let layout = this.layouts.get(signature);
    if (!layout) {
      const entries: GPUBindGroupLayoutEntry[] = [
        {
          binding: 0,
          visibility: GPUShaderStage.COMPUTE,
          buffer: { type: 'uniform', hasDynamicOffset: true, minBindingSize: PARAM_SLOT_BYTES },
        },
      ];
      [...signature].forEach((letter, i) => {
        if (letter !== 'w' && letter !== 'r') throw new Error(`bad binding signature ${signature}`);
        entries.push({
          binding: i + 1,
          visibility: GPUShaderStage.COMPUTE,
          buffer: { type: letter === 'w' ? 'storage' : 'read-only-storage' },
        });
      });
      layout = this.device.createBindGroupLayout({ entries, label: `bindings ${signature}` });
      this.layouts.set(signature, layout);
    }
    return layout;
  }

  private pipelineLayout(signature: BindingSignature): GPUPipelineLayout {
    let layout = this.pipelineLayouts.get(signature);
    if (!layout) {
      layout = this.device.createPipelineLayout({
        bindGroupLayouts: [this.bindGroupLayout(signature)],
      });
      this.pipelineLayouts.set(signature, layout);
    }
    return layout;
  }
}
