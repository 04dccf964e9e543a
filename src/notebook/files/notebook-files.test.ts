import { describe, expect, it } from 'vitest';
import { createCell, createNotebook } from '../model';
import { NotebookFileError, toIpynb } from './ipynb';
import { fileNameFor, readNotebookFile, titleFromFileName } from './notebook-files';

const file = (text: string, name: string) => Object.assign(new Blob([text]), { name });

describe('notebook files', () => {
  it('names downloads after the title, safely', () => {
    expect(fileNameFor('Loss & accuracy?', 'ipynb')).toBe('Loss accuracy.ipynb');
    expect(fileNameFor('../../etc/passwd', 'ts')).toBe('.. .. etc passwd.ts');
    expect(fileNameFor('   ', 'ipynb')).toBe('notebook.ipynb');
    expect(titleFromFileName('mnist run.IPYNB')).toBe('mnist run');
  });

  it('reads an exported notebook back as a new notebook', async () => {
    const nb = createNotebook({ title: 'Exported', cells: [createCell('code', 'print(1)')] });
    const read = await readNotebookFile(file(JSON.stringify(toIpynb(nb)), 'whatever.ipynb'));
    expect(read.id).not.toBe(nb.id);
    expect(read.title).toBe('Exported');
    expect(read.cells.map((c) => c.source)).toEqual(['print(1)']);
    const untitled = { ...toIpynb(nb), metadata: {} };
    expect((await readNotebookFile(file(JSON.stringify(untitled), 'my run.ipynb'))).title).toBe(
      'my run',
    );
  });

  it('refuses empty, huge, non-JSON and non-notebook files with NotebookFileError', async () => {
    const cases: [Promise<unknown>, RegExp][] = [
      [readNotebookFile(file('', 'empty.ipynb')), /is empty/],
      [readNotebookFile(file('{"nbformat": 4, "cells": []}', 'big.ipynb'), 10), /larger than/],
      [readNotebookFile(file('PK\u0003\u0004 zip', 'a.ipynb')), /not valid JSON/],
      [readNotebookFile(file('{"cells": []}', 'a.ipynb')), /nbformat 4/],
    ];
    for (const [promise, message] of cases) {
      const error = await promise.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NotebookFileError);
      expect((error as Error).message).toMatch(message);
    }
  });
});
