/**
 * The Python editor's completions and hovers over the generated names: aliases from the cells'
 * imports, the names after a namespace, the provider's items as Monaco receives them.
 */
import { describe as group, expect, it } from 'vitest';
import type * as Monaco from 'monaco-editor/editor';
import {
  describe,
  dottedAt,
  hoverText,
  importAliases,
  memberContext,
  namesAfter,
  PYTHON_NAMES,
} from './python-api';
import { registerPythonFeatures } from './monacoPython';

group('import aliases', () => {
  it('follows import, import as, from import (with parentheses) over the conventional names', () => {
    const aliases = importAliases([
      'import torch.nn.functional as fn, torch.cuda\nfrom tensorflow.keras import layers as L, models',
      'from torch.nn import (\n    Linear,  # a comment\n    functional as G,\n)\nimport tensorflow',
    ]);
    expect(aliases.get('fn')).toBe('torch.nn.functional');
    expect(aliases.get('torch')).toBe('torch');
    expect(aliases.get('L')).toBe('tensorflow.keras.layers');
    expect(aliases.get('models')).toBe('tensorflow.keras.models');
    expect(aliases.get('Linear')).toBe('torch.nn.Linear');
    expect(aliases.get('G')).toBe('torch.nn.functional');
    expect(aliases.get('tensorflow')).toBe('tensorflow');
    // Conventional names a chapter's cells use without this notebook importing them here.
    expect(aliases.get('tf')).toBe('tensorflow');
    expect(aliases.get('F')).toBe('torch.nn.functional');
    expect(importAliases(['import numpy as tf']).get('tf')).toBe('numpy');
  });
});

group('completions', () => {
  const aliases = importAliases(['import tensorflow as tf\nimport torch.nn.functional as F']);

  it('finds the context before the cursor', () => {
    expect(memberContext('x = tf.config.set_vis')).toEqual({
      namespace: 'tf.config',
      prefix: 'set_vis',
    });
    expect(memberContext('torch.')).toEqual({ namespace: 'torch', prefix: '' });
    expect(memberContext('print(x')).toBeNull();
    expect(memberContext('"a".')).toBeNull();
    expect(memberContext('x = 1  # see tf.')).toBeNull();
    expect(memberContext('print("tf.')).toBeNull();
    expect(memberContext("print(\"#\", 'a\\'b', tf.")).toEqual({ namespace: 'tf', prefix: '' });
  });

  it("lists a namespace's Python names, written out and from the TypeScript layer", () => {
    const config = namesAfter('tf.config', aliases);
    expect(config?.map((n) => n.name)).toContain('set_visible_devices');
    expect(config?.find((n) => n.name === 'set_visible_devices')).toMatchObject({
      path: 'tf.config.set_visible_devices',
      kind: 'function',
      signature: '(devices, device_type=None)',
    });
    expect(config?.some((n) => n.name === 'setVisibleDevices')).toBe(false);
    expect(namesAfter('tf.config.experimental', aliases)?.map((n) => n.name)).toContain(
      'set_memory_growth',
    );
    expect(namesAfter('F', aliases)?.map((n) => n.name)).toEqual(
      expect.arrayContaining(['cross_entropy', 'mse_loss', 'relu']),
    );
    expect(namesAfter('tf.keras.layers', aliases)?.find((n) => n.name === 'Dense')?.kind).toBe(
      'class',
    );
    expect(namesAfter('torch.cuda', aliases)?.map((n) => n.name)).toEqual(
      expect.arrayContaining(['empty_cache', 'memory_allocated', 'is_available']),
    );
    expect(namesAfter('np', aliases)).toBeNull();
    expect(namesAfter('tf.config.set_visible_devices', aliases)).toBeNull();
  });

  it('lists no private or camelCase name anywhere', () => {
    for (const [namespace, members] of Object.entries(PYTHON_NAMES)) {
      for (const name of Object.keys(members)) {
        expect(name, `${namespace}.${name}`).toMatch(/^(?!_)(?:[a-z0-9_]+|[A-Z]\w*)$/);
      }
    }
  });

  it("gives Monaco the provider's items with a range over the typed prefix", () => {
    const providers: {
      completion?: Monaco.languages.CompletionItemProvider;
      hover?: Monaco.languages.HoverProvider;
    } = {};
    const fakeMonaco = {
      languages: {
        CompletionItemKind: { Module: 8, Class: 5, Function: 1, Constant: 14 },
        registerCompletionItemProvider: (
          _language: string,
          provider: Monaco.languages.CompletionItemProvider,
        ) => (providers.completion = provider),
        registerHoverProvider: (_language: string, provider: Monaco.languages.HoverProvider) =>
          (providers.hover = provider),
      },
    } as unknown as typeof Monaco;
    registerPythonFeatures(fakeMonaco, () => ['import tensorflow as tf']);
    const line = 'tf.config.experimental.set_mem';
    const model = {
      getValue: () => line,
      getLineContent: () => line,
      getValueInRange: (r: Monaco.IRange) => line.slice(r.startColumn - 1, r.endColumn - 1),
    } as unknown as Monaco.editor.ITextModel;
    const position = { lineNumber: 1, column: line.length + 1 } as Monaco.Position;
    const token = {} as Monaco.CancellationToken;
    const context = {} as Monaco.languages.CompletionContext;
    const list = providers.completion?.provideCompletionItems(model, position, context, token) as
      Monaco.languages.CompletionList | undefined;
    const item = list?.suggestions.find((s) => s.label === 'set_memory_growth');
    expect(item).toMatchObject({
      kind: 1,
      insertText: 'set_memory_growth',
      detail: 'set_memory_growth(device, enable)',
      range: { startColumn: line.length + 1 - 'set_mem'.length, endColumn: line.length + 1 },
    });
    expect(providers.completion?.triggerCharacters).toEqual(['.']);

    const hover = providers.hover?.provideHover(
      model,
      { lineNumber: 1, column: 5 } as Monaco.Position,
      token,
    ) as Monaco.languages.Hover | undefined;
    expect(hover?.contents[0]).toEqual({ value: '```python\nmodule tf.config\n```' });
    expect(hover?.range).toMatchObject({ startColumn: 1, endColumn: 10 });
  });
});

group('hovers', () => {
  const aliases = importAliases(['from tensorflow.keras.layers import Dense']);

  it('takes the dotted name up to the end of the word under the cursor', () => {
    const line = 'gpus = tf.config.list_physical_devices("GPU")';
    expect(dottedAt(line, line.indexOf('config') + 2)?.text).toBe('tf.config');
    expect(dottedAt(line, line.indexOf('list_') + 1)?.text).toBe('tf.config.list_physical_devices');
    expect(dottedAt(line, line.indexOf('(')))?.toBeNull();
  });

  it('shows the signature and the docstring', () => {
    const device = describe('tf.device', aliases);
    expect(device?.kind).toBe('class');
    expect(hoverText(device!)[0]).toBe('```python\nclass tf.device(device_name)\n```');
    expect(hoverText(device!)[1]).toContain('with tf.device');
    expect(describe('Dense', aliases)?.kind).toBe('class');
    expect(describe('torch.cuda.empty_cache', aliases)?.signature).toBe('()');
    expect(describe('torch.no_such_name', aliases)).toBeNull();
  });
});
