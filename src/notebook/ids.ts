/** Short random ids for notebooks and cells, valid as nbformat 4.5 cell ids and in URLs. */

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** `length` characters of [0-9a-z]; 12 characters are ~62 bits, plenty for one user's notebooks. */
export function newId(length = 12): string {
  const bytes = new Uint8Array(length);
  crypto.getRandomValues(bytes);
  let id = '';
  // 256 % 36 leaves a slight bias towards the first characters: harmless for ids.
  for (const byte of bytes) id += ALPHABET[byte % ALPHABET.length];
  return id;
}
