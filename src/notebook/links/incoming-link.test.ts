import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toIpynb } from '../files/ipynb';
import { createCell, createNotebook } from '../model';
import {
  bundledNotebookUrl,
  loadIncomingNotebook,
  parseIncomingLink,
  type IncomingLink,
} from './incoming-link';
import { LinkError } from './payload-codec';

const url = (text: string) => new URL(text, 'https://example.org/app/');
/** Node's zlib + Buffer: an implementation of the link format independent of ours. */
const payloadOf = (value: unknown) =>
  deflateRawSync(Buffer.from(JSON.stringify(value), 'utf8')).toString('base64url');

describe('reading incoming links', () => {
  it('accepts plain bundled names and refuses anything that could leave notebooks/', () => {
    expect(parseIncomingLink(url('?open=torch-gpu&size=test'))).toEqual({
      kind: 'bundled',
      id: 'torch-gpu',
    });
    expect(parseIncomingLink(url('?open=a1'))).toEqual({ kind: 'bundled', id: 'a1' });
    for (const bad of [
      '../x',
      '..%2Fx',
      'a/b',
      '-x',
      'Torch',
      'x.ipynb',
      'https://evil.example/x',
      '%00',
      'a'.repeat(65),
    ]) {
      const link = parseIncomingLink(url(`?open=${bad}`));
      expect(link?.kind, bad).toBe('invalid');
    }
    expect(parseIncomingLink(url('?open='))).toMatchObject({
      kind: 'invalid',
      message: expect.stringContaining('empty'),
    });
    expect(() => bundledNotebookUrl('../x', '/')).toThrow(LinkError);
    expect(bundledNotebookUrl('torch-gpu', '/app')).toBe('/app/notebooks/torch-gpu.ipynb');
  });

  it('reads #nb= (which wins over ?open=) and ignores other URLs', () => {
    expect(parseIncomingLink(url('?open=x#nb=abc_-'))).toEqual({
      kind: 'shared',
      payload: 'abc_-',
    });
    expect(parseIncomingLink(url('#nb='))).toEqual({ kind: 'shared', payload: '' });
    expect(parseIncomingLink(url('?nb=k9&size=test'))).toBeNull();
    expect(parseIncomingLink(url('#section-2'))).toBeNull();
  });
});

describe('loading a shared notebook', () => {
  const deps = { fetch, baseUrl: '/' };
  const shared = (payload: string): IncomingLink => ({ kind: 'shared', payload });

  it('makes a new notebook from a payload made by Node zlib', async () => {
    const source = createNotebook({
      title: 'Shared ✓',
      cells: [createCell('markdown', '# Héllo'), createCell('code', 'print(torch.ones([2]))')],
    });
    const { notebook, origin } = await loadIncomingNotebook(
      shared(payloadOf(toIpynb(source))),
      deps,
    );
    expect(origin).toBe('shared-link');
    expect(notebook.id).not.toBe(source.id);
    expect(notebook.title).toBe('Shared ✓');
    expect(notebook.cells.map((c) => [c.type, c.source])).toEqual([
      ['markdown', '# Héllo'],
      ['code', 'print(torch.ones([2]))'],
    ]);
  });

  it('turns every broken link into a LinkError with a clear message', async () => {
    const cases: [string, RegExp][] = [
      ['', /empty/],
      ['not base64!', /characters that base64url never uses/],
      [payloadOf(toIpynb(createNotebook())).slice(0, 21), /cut short|truncated/],
      [
        deflateRawSync(Buffer.from('{"nbformat": 4, "cells": [')).toString('base64url'),
        /not valid JSON/,
      ],
      [payloadOf({ nbformat: 3, cells: [] }), /not hold a notebook.*nbformat 4/],
      [payloadOf({ nbformat: 4, cells: [{ cell_type: 'video' }] }), /unknown cell_type/],
      [payloadOf(['a list']), /not hold a notebook/],
    ];
    for (const [payload, message] of cases) {
      const error = await loadIncomingNotebook(shared(payload), deps).catch((e: unknown) => e);
      expect(error, payload.slice(0, 30)).toBeInstanceOf(LinkError);
      expect((error as Error).message, payload.slice(0, 30)).toMatch(message);
    }
  });

  it('refuses a decompression bomb without inflating it all', async () => {
    const bomb = deflateRawSync(Buffer.alloc(40 * 1024 * 1024, 32)).toString('base64url');
    await expect(loadIncomingNotebook(shared(bomb), deps)).rejects.toThrow(/inflate past/);
  });
});

describe('loading a bundled notebook over HTTP', () => {
  let server: Server;
  let base = '';
  const chapter = readFileSync('public/notebooks/torch-gpu.ipynb', 'utf8');
  const requests: { url: string; accept: string }[] = [];

  beforeAll(async () => {
    // A real server: serves the real chapter, and answers like a single-page-app host would.
    server = createServer((req, res) => {
      requests.push({ url: req.url ?? '', accept: req.headers.accept ?? '' });
      if (req.url === '/app/notebooks/torch-gpu.ipynb') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(chapter);
      } else if (req.url === '/app/notebooks/spa.ipynb') {
        res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><div id=root>');
      } else if (req.url === '/app/notebooks/broken.ipynb') {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"nbformat": 4,');
      } else if (req.url === '/app/notebooks/down.ipynb') {
        res.writeHead(503).end();
      } else {
        res.writeHead(404).end('not found');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/app/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const load = (id: string) =>
    loadIncomingNotebook({ kind: 'bundled', id }, { fetch, baseUrl: base });

  it('opens the real chapter as a new, bundled notebook', async () => {
    const { notebook, origin } = await load('torch-gpu');
    const file = JSON.parse(chapter) as {
      cells: { source: string[] }[];
      metadata: { gpubook: { title: string } };
    };
    expect(origin).toBe('bundled');
    expect(notebook.title).toBe(file.metadata.gpubook.title);
    expect(notebook.cells).toHaveLength(file.cells.length);
    expect(notebook.cells[1].source).toBe(file.cells[1].source.join(''));
    // Asked without text/html, so an SPA server's index.html fallback does not kick in.
    expect(requests.at(-1)?.accept).not.toMatch(/text\/html|\*\/\*/);
  });

  it('says clearly when it is missing, not a notebook, or the server fails', async () => {
    await expect(load('nope')).rejects.toThrow('There is no bundled notebook called “nope”.');
    await expect(load('spa')).rejects.toThrow('There is no bundled notebook called “spa”.');
    await expect(load('broken')).rejects.toThrow(/not valid JSON/);
    await expect(load('down')).rejects.toThrow(/server answered 503/);
    const unreachable = loadIncomingNotebook(
      { kind: 'bundled', id: 'x' },
      { fetch, baseUrl: 'http://127.0.0.1:1/' },
    );
    await expect(unreachable).rejects.toThrow(/could not be loaded/);
  });
});
