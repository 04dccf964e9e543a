/**
 * python-names.json, the Python editor's names, is what list_names.py finds in the real Python
 * packages (src/api/python/) under Pyodide: when a face gains or loses a name this test fails,
 * and `npx vitest run src/notebook/editor/python/python-names.test.ts -u` rewrites the file.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { describe, expect, it } from 'vitest';
import { tf } from '../../../api/tf';
import { startPython } from '../../../api/python/testing/pyodide';
import type names from './python-names.json';

describe('the Python names listing', () => {
  it('equals what the Python packages answer to', async () => {
    const python = await startPython({ tf });
    python.py.FS.writeFile(
      '/lib/gpubook/_list_names.py',
      readFileSync(new URL('./list_names.py', import.meta.url), 'utf8'),
    );
    const listing = await python.run('import json, _list_names\njson.dumps(_list_names.listing())');
    const fresh = JSON.parse(String(listing)) as typeof names;
    // Written as Prettier writes it, so formatting the repository leaves the file as it is.
    const file = fileURLToPath(new URL('./python-names.json', import.meta.url));
    const text = await format(JSON.stringify(fresh, null, 1), {
      ...(await resolveConfig(file)),
      filepath: file,
    });
    await expect(text).toMatchFileSnapshot('./python-names.json');
    // Spot checks that the walk reached the dynamic names and the written-out ones.
    expect(fresh['torch.cuda'].empty_cache[0]).toBe('function');
    expect(fresh['tensorflow.keras.layers'].Dense[0]).toBe('class');
    expect(fresh['torch.nn.functional'].mse_loss[0]).toBe('function');
    expect(fresh['tensorflow.config'].set_visible_devices[1]).toBe('(devices, device_type=None)');
  }, 120_000);
});
