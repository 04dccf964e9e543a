/** Pure rules of the Files panel: the name a stored file downloads under and the upload limit. */

/** Uploads above this are refused: IndexedDB copies the whole file into memory on the way in. */
export const MAX_UPLOAD_BYTES = 512 * 1024 * 1024;

/**
 * The name a stored file downloads as. torch.save always writes safetensors bytes, so a name
 * without an extension, or with PyTorch's pickle extensions (.pt/.pth), would mislead Python:
 * those download as `<stem>.safetensors`.
 */
export function downloadName(name: string): string {
  const base = name.split('/').pop() || 'file';
  const dot = base.lastIndexOf('.');
  if (dot <= 0) return `${base}.safetensors`;
  const ext = base.slice(dot + 1).toLowerCase();
  if (ext === 'pt' || ext === 'pth') return `${base.slice(0, dot)}.safetensors`;
  return base;
}

/** Why an upload is refused, or null when it may go into the store. */
export function uploadProblem(file: { name: string; size: number }, maxBytes = MAX_UPLOAD_BYTES) {
  if (file.size > maxBytes) {
    const mb = Math.round(maxBytes / (1024 * 1024));
    return `“${file.name}” is ${(file.size / (1024 * 1024)).toFixed(0)} MB; files over ${mb} MB are not stored in the browser.`;
  }
  return null;
}
