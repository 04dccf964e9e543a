/** A notebook's language through .ipynb: Python kernelspecs survive import and export. */
import { describe, expect, it } from 'vitest';
import {
  createNotebook,
  GPUBOOK_KERNELSPEC,
  metadataLanguage,
  notebookLanguage,
  PYTHON_KERNELSPEC,
} from '../model';
import { fromIpynb, parseIpynbText, toIpynb, toPython } from './ipynb';

const jupyterPython = {
  nbformat: 4,
  nbformat_minor: 5,
  metadata: {
    kernelspec: { name: 'python3', display_name: 'Python 3 (ipykernel)', language: 'python' },
    language_info: { name: 'python', version: '3.11.4', file_extension: '.py' },
    colab: { provenance: [] },
  },
  cells: [
    { cell_type: 'code', metadata: {}, source: ['!pip install torchkeras\n', 'import torch'] },
  ],
};

describe('notebook language', () => {
  it('a new notebook is TypeScript unless asked for Python', () => {
    expect(notebookLanguage(createNotebook())).toBe('typescript');
    expect(createNotebook().metadata.kernelspec).toEqual(GPUBOOK_KERNELSPEC);
    const python = createNotebook({ language: 'python' });
    expect(notebookLanguage(python)).toBe('python');
    expect(python.metadata.kernelspec).toEqual({
      name: 'python3',
      display_name: 'Python 3',
      language: 'python',
    });
    expect(python.metadata.language_info).toEqual({ name: 'python' });
  });

  it('reads Python from the kernelspec, language_info or kernel name', () => {
    expect(metadataLanguage({ kernelspec: { ...PYTHON_KERNELSPEC } })).toBe('python');
    // Colab writes no kernelspec.language.
    expect(
      metadataLanguage({
        kernelspec: { name: 'python3', display_name: 'Python 3' },
        language_info: { name: 'python' },
      }),
    ).toBe('python');
    expect(metadataLanguage({ kernelspec: { name: 'python3' } })).toBe('python');
    expect(metadataLanguage({ kernelspec: { ...GPUBOOK_KERNELSPEC } })).toBe('typescript');
    expect(metadataLanguage({})).toBe('typescript');
  });

  it('a Jupyter Python notebook opens as Python and exports with its own kernelspec', () => {
    const notebook = fromIpynb(jupyterPython);
    expect(notebookLanguage(notebook)).toBe('python');
    expect(notebook.cells[0].source).toBe('!pip install torchkeras\nimport torch');
    const exported = toIpynb(notebook);
    expect(exported.metadata.kernelspec).toEqual(jupyterPython.metadata.kernelspec);
    expect(exported.metadata.language_info).toEqual(jupyterPython.metadata.language_info);
    expect(exported.metadata.colab).toEqual({ provenance: [] });
    // And back again: still Python, same kernelspec.
    const again = parseIpynbText(JSON.stringify(exported));
    expect(notebookLanguage(again)).toBe('python');
    expect(toIpynb(again).metadata.kernelspec).toEqual(jupyterPython.metadata.kernelspec);
  });

  it('a new Python notebook exports the Python 3 kernelspec; TypeScript keeps ours', () => {
    const python = toIpynb(createNotebook({ language: 'python' }));
    expect(python.metadata.kernelspec).toEqual(PYTHON_KERNELSPEC);
    expect(python.metadata.language_info).toEqual({ name: 'python' });
    const ts = toIpynb(createNotebook());
    expect(ts.metadata.kernelspec).toEqual(GPUBOOK_KERNELSPEC);
    expect(ts.metadata.language_info).toEqual({ name: 'typescript' });
  });

  it('a Colab kernelspec without a language gets one and keeps its name', () => {
    const colab = {
      ...jupyterPython,
      metadata: {
        kernelspec: { name: 'python3', display_name: 'Python 3' },
        language_info: { name: 'python' },
      },
    };
    const exported = toIpynb(fromIpynb(colab));
    expect(exported.metadata.kernelspec).toEqual({ ...PYTHON_KERNELSPEC });
  });
});

describe('script download', () => {
  it('a Python notebook downloads as percent-format Python', () => {
    const notebook = fromIpynb({
      ...jupyterPython,
      cells: [
        { cell_type: 'markdown', metadata: {}, source: '# Title\nText' },
        { cell_type: 'code', metadata: {}, source: 'x = 1\nprint(x)' },
      ],
    });
    expect(toPython({ ...notebook, title: 'Demo' })).toBe(
      '# Demo — exported from gpubook\n\n# %% [markdown]\n# # Title\n# Text\n\n# %%\nx = 1\nprint(x)\n',
    );
  });
});
