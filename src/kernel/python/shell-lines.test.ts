import { describe, expect, it } from 'vitest';
import { rewriteShellLines, statementStarts } from './shell-lines';

const lineCount = (text: string) => text.split('\n').length;

describe('rewriteShellLines', () => {
  it('replaces shell and magic lines by a note, line for line, and keeps the rest', () => {
    const source = '!ls -la\n%load_ext autoreload\nimport torch\nx = 1';
    const { code, replaced } = rewriteShellLines(source);
    expect(replaced).toEqual(['!ls -la', '%load_ext autoreload']);
    const lines = code.split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^__import__\("sys"\)\.stdout\.write\(".*!ls -la.*\\n"\)$/);
    expect(lines[1]).toContain('%load_ext autoreload');
    expect(lines.slice(2)).toEqual(['import torch', 'x = 1']);
  });

  it('leaves pip install lines to the kernel, which runs them before the cell', () => {
    const source =
      '%pip install -q requests\n!pip3 install torch==2.0\nif True:\n    !python -m pip install x';
    const { code, replaced } = rewriteShellLines(source);
    expect(replaced).toHaveLength(3);
    expect(code).toBe('pass\npass\nif True:\n    pass');
  });

  it('keeps the indentation of a shell line inside a block', () => {
    const { code } = rewriteShellLines('if True:\n    !nvidia-smi\n    y = 2');
    expect(code.split('\n')[1]).toMatch(/^ {4}__import__\("sys"\)/);
    expect(code.split('\n')[2]).toBe('    y = 2');
  });

  it('leaves % and ! inside strings, brackets and continuations alone', () => {
    const source = [
      'doc = """',
      '%not a magic',
      '!not a shell line',
      '"""',
      'total = (1',
      '% 2)',
      'x = 3 \\',
      '% 2',
      "s = '%d' % 4  # !comment",
    ].join('\n');
    expect(rewriteShellLines(source)).toEqual({ code: source, replaced: [] });
    expect(statementStarts(source)).toEqual([
      true,
      false,
      false,
      false,
      true,
      false,
      true,
      false,
      true,
    ]);
  });

  it('takes a shell line continued with a backslash as one line', () => {
    const source = '!echo \\\n    hello\nz = 1';
    const { code, replaced } = rewriteShellLines(source);
    expect(replaced).toEqual(['!echo \\']);
    expect(code.split('\n')[1]).toBe('');
    expect(code.split('\n')[2]).toBe('z = 1');
    expect(lineCount(code)).toBe(3);
  });

  it('runs the body of a Python cell magic and skips a cell whose magic body is not Python', () => {
    const timed = rewriteShellLines('%%time\nz = 1');
    expect(timed.replaced).toEqual(['%%time']);
    expect(timed.code.split('\n')[1]).toBe('z = 1');
    const bash = rewriteShellLines('# setup\n%%bash\npip install x\nls -la');
    expect(bash.replaced).toEqual(['%%bash']);
    expect(bash.code.split('\n')).toEqual(['', expect.stringContaining('%%bash'), '', '']);
  });

  it('writes notes as valid Python string literals whatever the line holds', () => {
    const { code } = rewriteShellLines('!echo "a\\b" \'c\' \u00e9');
    const literal = /write\((.*)\)$/.exec(code)?.[1] ?? '';
    expect(JSON.parse(literal)).toContain('!echo "a\\b" \'c\' \u00e9');
  });
});
