import { describe, expect, it } from 'vitest';
import { downloadName, MAX_UPLOAD_BYTES, uploadProblem } from './file-names';

describe('downloadName', () => {
  it('names safetensors bytes .safetensors when the stored name hides what they are', () => {
    expect(downloadName('weights')).toBe('weights.safetensors');
    expect(downloadName('model.pt')).toBe('model.safetensors');
    expect(downloadName('ckpt.epoch3.PTH')).toBe('ckpt.epoch3.safetensors');
    expect(downloadName('.hidden')).toBe('.hidden.safetensors');
  });
  it('keeps other extensions and drops folders', () => {
    expect(downloadName('lin.safetensors')).toBe('lin.safetensors');
    expect(downloadName('runs/a/notes.json')).toBe('notes.json');
  });
});

describe('uploadProblem', () => {
  it('refuses only files over the limit', () => {
    expect(uploadProblem({ name: 'a', size: MAX_UPLOAD_BYTES })).toBeNull();
    expect(uploadProblem({ name: 'big.bin', size: MAX_UPLOAD_BYTES + 1 })).toMatch(
      /big\.bin.*over 512 MB/,
    );
  });
});
