/**
 * Draws the app icon (a chip on a blue tile) as SVG and as the PNGs the web manifest lists
 * (public/icons). Run once after changing the design: `node scripts/make-icons.mjs`. The PNGs are
 * rasterised here from the same shapes (signed distances, 4×4 supersampling) and encoded with
 * node:zlib, so no image library is needed.
 */
import { Buffer } from 'node:buffer';
import { mkdirSync, writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const OUT = 'public/icons';
const BLUE = [26, 115, 232];
const WHITE = [255, 255, 255];

/** Signed distance to a rounded box centred at (cx, cy) with half sizes (hx, hy), radius r. */
function roundedBox(x, y, cx, cy, hx, hy, r) {
  const qx = Math.abs(x - cx) - hx + r;
  const qy = Math.abs(y - cy) - hy + r;
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
}

/** The design on a 0..1 square: [shape distance, colour] layers, painted in order. */
function layers(maskable) {
  // Maskable icons must keep their content inside the central 80% circle.
  const s = maskable ? 0.72 : 1;
  const at = (v) => 0.5 + (v - 0.5) * s;
  const tile = maskable ? () => -1 : (x, y) => roundedBox(x, y, 0.5, 0.5, 0.5, 0.5, 0.2);
  const chip = (x, y) => roundedBox(x, y, 0.5, 0.5, 0.22 * s, 0.22 * s, 0.04 * s);
  const core = (x, y) => roundedBox(x, y, 0.5, 0.5, 0.1 * s, 0.1 * s, 0.02 * s);
  const pins = (x, y) => {
    let d = Infinity;
    for (const p of [0.38, 0.5, 0.62]) {
      for (const [cx, cy, hx, hy] of [
        [at(p), at(0.22), 0.025 * s, 0.06 * s],
        [at(p), at(0.78), 0.025 * s, 0.06 * s],
        [at(0.22), at(p), 0.06 * s, 0.025 * s],
        [at(0.78), at(p), 0.06 * s, 0.025 * s],
      ]) {
        d = Math.min(d, roundedBox(x, y, cx, cy, hx, hy, 0.012 * s));
      }
    }
    return d;
  };
  return [
    [tile, BLUE],
    [(x, y) => Math.min(chip(x, y), pins(x, y)), WHITE],
    [core, BLUE],
  ];
}

function rasterise(size, maskable) {
  const paint = layers(maskable);
  const rgba = new Uint8Array(size * size * 4);
  const n = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0,
        g = 0,
        b = 0,
        a = 0;
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const x = (px + (sx + 0.5) / n) / size;
          const y = (py + (sy + 0.5) / n) / size;
          let colour = null;
          for (const [shape, c] of paint) if (shape(x, y) <= 0) colour = c;
          if (colour) {
            r += colour[0];
            g += colour[1];
            b += colour[2];
            a += 255;
          }
        }
      }
      const samples = n * n;
      const coverage = a / 255;
      const o = (py * size + px) * 4;
      rgba[o] = coverage ? Math.round(r / coverage) : 0;
      rgba[o + 1] = coverage ? Math.round(g / coverage) : 0;
      rgba[o + 2] = coverage ? Math.round(b / coverage) : 0;
      rgba[o + 3] = Math.round(a / samples);
    }
  }
  return rgba;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  Buffer.from(data).copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

function png(size, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    rows[y * (size * 4 + 1)] = 0; // filter: none
    Buffer.from(rgba.buffer, y * size * 4, size * 4).copy(rows, y * (size * 4 + 1) + 1);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', new Uint8Array(0)),
  ]);
}

const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
  <rect width="100" height="100" rx="20" fill="#1a73e8"/>
  <g fill="#fff">
    <rect x="28" y="28" width="44" height="44" rx="4"/>
    ${[38, 50, 62]
      .map(
        (p) =>
          `<rect x="${p - 2.5}" y="16" width="5" height="12" rx="1.2"/><rect x="${p - 2.5}" y="72" width="5" height="12" rx="1.2"/><rect x="16" y="${p - 2.5}" width="12" height="5" rx="1.2"/><rect x="72" y="${p - 2.5}" width="12" height="5" rx="1.2"/>`,
      )
      .join('\n    ')}
  </g>
  <rect x="40" y="40" width="20" height="20" rx="2" fill="#1a73e8"/>
</svg>
`;

mkdirSync(OUT, { recursive: true });
writeFileSync(`${OUT}/icon.svg`, svg);
writeFileSync(`${OUT}/icon-192.png`, png(192, rasterise(192, false)));
writeFileSync(`${OUT}/icon-512.png`, png(512, rasterise(512, false)));
writeFileSync(`${OUT}/icon-maskable-512.png`, png(512, rasterise(512, true)));
console.log(`wrote ${OUT}/icon.svg, icon-192.png, icon-512.png, icon-maskable-512.png`);
