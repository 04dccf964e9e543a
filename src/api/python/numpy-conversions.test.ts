/**
 * Tensors ⇄ NumPy arrays (torch/_numpy.py) under Debian's CPython with real NumPy: the module
 * runs unchanged with a pure-Python stand-in for the engine (testing/numpy_cases.py), its values
 * and dtypes checked against NumPy on random arrays (every dtype PyTorch converts, 0-d, empty,
 * transposed, strided, Fortran-ordered, big-endian), its dtypes and error messages against real
 * PyTorch when python3-torch is installed, and PyTorch's tutorial's shared-memory examples. The
 * engine side of the interface is tested in Pyodide (numpy-without-numpy.test.ts).
 *
 * Seed chapter 004's NumPy/pandas use with our tensors, listed: `np.argmax`/`np.argmin` over the
 * history of `.item()` floats, indexing that list with NumPy's integer, `pd.DataFrame(history)`.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const PYTHON = '/usr/bin/python3';
const packages = fileURLToPath(new URL('.', import.meta.url)).replace(/\/$/, '');
const script = fileURLToPath(new URL('./testing/numpy_cases.py', import.meta.url));
const probe = spawnSync(PYTHON, ['-c', 'import numpy, pandas'], { encoding: 'utf8' });

const CASES = [
  'round_trip_every_dtype_and_layout',
  'engine_precision_is_float32_for_float64',
  'dtypes_as_pytorch_names_them',
  'default_dtypes_of_engine_tensors',
  'tutorial_tensor_to_numpy_shares_memory',
  'tutorial_numpy_to_tensor_shares_memory',
  'from_numpy_in_place_ops_write_the_array',
  'exported_arrays_written_by_numpy',
  'exported_arrays_are_held_weakly',
  'strided_source_keeps_its_strides',
  'numpy_scalars',
  'errors_as_pytorch_words_them',
  'big_endian_for_tensorflow',
  'tensorflow_numpy_values',
  'without_numpy_the_error_says_how_to_get_it',
  'seed_004_numpy_and_pandas',
  'repr_dtype_suffix_as_real_pytorch',
  'arguments_for_keras_and_operators',
  'results_as_arrays_for_predict_and_as_numpy_iterator',
  'row_reads_compare_only_their_row',
];

describe.skipIf(probe.status !== 0)('tensors ⇄ NumPy under CPython (torch/_numpy.py)', () => {
  let results: Record<string, string> = {};
  if (probe.status === 0) {
    const run = spawnSync(PYTHON, [script, packages], { encoding: 'utf8', timeout: 120_000 });
    if (run.status !== 0) throw new Error(`CPython failed:\n${run.stderr}`);
    results = JSON.parse(run.stdout) as Record<string, string>;
  }

  it('runs every case', () => {
    expect(Object.keys(results).sort()).toEqual([...CASES].sort());
  });

  it.each(CASES)('%s', (name) => {
    expect(results[name]).toBe('ok');
  });
});
