#!/usr/bin/env node
// Generates the sample images in content/demo/media/ (PNG, baseline JPEG, SVG) with no
// dependencies: PNG via zlib, JPEG via a tiny baseline encoder (4:4:4, flat Huffman tables).
// The images are committed; rerun only to regenerate them:
//   node scripts/make-sample-images.mjs [content/demo/media]
import { deflateSync } from 'node:zlib';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pngChunk } from './generate-content.mjs';

// ---------------------------------------------------------------- raster helpers
function canvas(w, h) {
  return { w, h, px: new Uint8ClampedArray(w * h * 3) };
}
function set(c, x, y, [r, g, b], a = 1) {
  if (x < 0 || y < 0 || x >= c.w || y >= c.h) return;
  const i = (y * c.w + x) * 3;
  c.px[i] = c.px[i] * (1 - a) + r * a;
  c.px[i + 1] = c.px[i + 1] * (1 - a) + g * a;
  c.px[i + 2] = c.px[i + 2] * (1 - a) + b * a;
}
const mix = (p, q, t) => [p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t, p[2] + (q[2] - p[2]) * t];
function vgradient(c, top, bottom) {
  for (let y = 0; y < c.h; y++) {
    const col = mix(top, bottom, y / (c.h - 1));
    for (let x = 0; x < c.w; x++) set(c, x, y, col);
  }
}
function fill(c, inside, col, a = 1) {
  for (let y = 0; y < c.h; y++) for (let x = 0; x < c.w; x++) if (inside(x + 0.5, y + 0.5)) set(c, x, y, col, a);
}
const circle = (cx, cy, r) => (x, y) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
const rect = (x0, y0, x1, y1) => (x, y) => x >= x0 && x < x1 && y >= y0 && y < y1;
const below = (f) => (x, y) => y >= f(x);

// ---------------------------------------------------------------- PNG
export function encodePng(c) {
  const { w, h, px } = c;
  const stride = w * 3;
  const raw = Buffer.alloc((stride + 1) * h);
  const paeth = (a, b, cc) => {
    const p = a + b - cc,
      pa = Math.abs(p - a),
      pb = Math.abs(p - b),
      pc = Math.abs(p - cc);
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : cc;
  };
  const row = new Uint8Array(stride);
  for (let y = 0; y < h; y++) {
    // choose the filter with the smallest sum of absolute values (the usual heuristic)
    let best = null,
      bestSum = Infinity,
      bestType = 0;
    for (let t = 0; t <= 4; t++) {
      let sum = 0;
      for (let i = 0; i < stride; i++) {
        const v = px[y * stride + i];
        const a = i >= 3 ? px[y * stride + i - 3] : 0;
        const b = y > 0 ? px[(y - 1) * stride + i] : 0;
        const cc = i >= 3 && y > 0 ? px[(y - 1) * stride + i - 3] : 0;
        const pred = t === 0 ? 0 : t === 1 ? a : t === 2 ? b : t === 3 ? (a + b) >> 1 : paeth(a, b, cc);
        row[i] = (v - pred) & 0xff;
        sum += row[i] < 128 ? row[i] : 256 - row[i];
      }
      if (sum < bestSum) {
        bestSum = sum;
        bestType = t;
        best = Uint8Array.from(row);
      }
    }
    raw[y * (stride + 1)] = bestType;
    raw.set(best, y * (stride + 1) + 1);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  ihdr[10] = 0;
  ihdr[11] = 0;
  ihdr[12] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

// ---------------------------------------------------------------- JPEG (baseline, 4:4:4)
const ZIGZAG = [
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28, 35, 42, 49, 56, 57,
  50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
];
const Q_LUM = [
  16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62, 18, 22,
  37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
];
const Q_CHR = [
  17,
  18,
  24,
  47,
  99,
  99,
  99,
  99,
  18,
  21,
  26,
  66,
  99,
  99,
  99,
  99,
  24,
  26,
  56,
  99,
  99,
  99,
  99,
  99,
  47,
  66,
  99,
  99,
  99,
  99,
  99,
  99,
  ...new Array(32).fill(99),
];
function scaleQ(table, quality) {
  const s = quality < 50 ? 5000 / quality : 200 - quality * 2;
  return table.map((q) => Math.min(255, Math.max(1, Math.floor((q * s + 50) / 100))));
}
// Flat Huffman tables: valid per the standard (no all-ones code), simple and obviously correct.
const DC_SYMBOLS = Array.from({ length: 12 }, (_, i) => i); // 12 codes of length 4
const AC_SYMBOLS = [0x00, 0xf0];
for (let r = 0; r < 16; r++) for (let s = 1; s <= 10; s++) AC_SYMBOLS.push((r << 4) | s); // 162 codes of length 8
function huffCodes(symbols, length) {
  const codes = new Map();
  symbols.forEach((s, i) => {
    codes.set(s, { code: i, len: length });
  });
  return codes;
}
const DC_CODES = huffCodes(DC_SYMBOLS, 4);
const AC_CODES = huffCodes(AC_SYMBOLS, 8);
const COS = Array.from({ length: 8 }, (_, x) => Array.from({ length: 8 }, (_, u) => Math.cos(((2 * x + 1) * u * Math.PI) / 16)));

export function encodeJpeg(c, quality = 82) {
  const { w, h, px } = c;
  const qt = [scaleQ(Q_LUM, quality), scaleQ(Q_CHR, quality)];
  const out = [];
  const bytes = (...b) => out.push(Buffer.from(b.flat()));
  const u16 = (n) => [(n >> 8) & 0xff, n & 0xff];
  bytes(0xff, 0xd8);
  bytes(0xff, 0xe0, u16(16), [0x4a, 0x46, 0x49, 0x46, 0], 1, 1, 0, u16(1), u16(1), 0, 0);
  bytes(
    0xff,
    0xdb,
    u16(2 + 65 * 2),
    0,
    ZIGZAG.map((i) => qt[0][i]),
    1,
    ZIGZAG.map((i) => qt[1][i]),
  );
  bytes(0xff, 0xc0, u16(17), 8, u16(h), u16(w), 3, 1, 0x11, 0, 2, 0x11, 1, 3, 0x11, 1);
  const bitsFor = (n, len) => {
    const b = new Array(16).fill(0);
    b[len - 1] = n;
    return b;
  };
  bytes(0xff, 0xc4, u16(2 + 17 + 12 + 17 + 162), 0x00, bitsFor(12, 4), DC_SYMBOLS, 0x10, bitsFor(162, 8), AC_SYMBOLS);
  bytes(0xff, 0xda, u16(12), 3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 63, 0);

  const data = [];
  let acc = 0,
    nbits = 0;
  const put = (code, len) => {
    for (let i = len - 1; i >= 0; i--) {
      acc = (acc << 1) | ((code >> i) & 1);
      if (++nbits === 8) {
        data.push(acc);
        if (acc === 0xff) data.push(0);
        acc = 0;
        nbits = 0;
      }
    }
  };
  const category = (v) => {
    let a = Math.abs(v),
      s = 0;
    while (a) {
      s++;
      a >>= 1;
    }
    return s;
  };
  const extra = (v, s) => (v < 0 ? v + (1 << s) - 1 : v);
  const pred = [0, 0, 0];
  const block = new Float64Array(64),
    coef = new Int32Array(64);
  for (let by = 0; by < h; by += 8) {
    for (let bx = 0; bx < w; bx += 8) {
      for (let comp = 0; comp < 3; comp++) {
        for (let y = 0; y < 8; y++)
          for (let x = 0; x < 8; x++) {
            const i = (Math.min(h - 1, by + y) * w + Math.min(w - 1, bx + x)) * 3;
            const r = px[i],
              g = px[i + 1],
              b = px[i + 2];
            const v =
              comp === 0
                ? 0.299 * r + 0.587 * g + 0.114 * b
                : comp === 1
                  ? -0.168736 * r - 0.331264 * g + 0.5 * b + 128
                  : 0.5 * r - 0.418688 * g - 0.081312 * b + 128;
            block[y * 8 + x] = v - 128;
          }
        const q = qt[comp === 0 ? 0 : 1];
        for (let v = 0; v < 8; v++)
          for (let u = 0; u < 8; u++) {
            let s = 0;
            for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) s += block[y * 8 + x] * COS[x][u] * COS[y][v];
            const cu = u === 0 ? Math.SQRT1_2 : 1,
              cv = v === 0 ? Math.SQRT1_2 : 1;
            coef[v * 8 + u] = Math.round((0.25 * cu * cv * s) / q[v * 8 + u]);
          }
        const diff = coef[0] - pred[comp];
        pred[comp] = coef[0];
        const ds = category(diff);
        const dc = DC_CODES.get(ds);
        put(dc.code, dc.len);
        if (ds) put(extra(diff, ds), ds);
        let run = 0;
        for (let k = 1; k < 64; k++) {
          const v = coef[ZIGZAG[k]];
          if (v === 0) {
            run++;
            continue;
          }
          while (run > 15) {
            const z = AC_CODES.get(0xf0);
            put(z.code, z.len);
            run -= 16;
          }
          const s = category(v);
          const ac = AC_CODES.get((run << 4) | s);
          put(ac.code, ac.len);
          put(extra(v, s), s);
          run = 0;
        }
        if (run) {
          const e = AC_CODES.get(0x00);
          put(e.code, e.len);
        }
      }
    }
  }
  if (nbits) put((1 << (8 - nbits)) - 1, 8 - nbits);
  out.push(Buffer.from(data));
  bytes(0xff, 0xd9);
  return Buffer.concat(out);
}

// ---------------------------------------------------------------- the pictures
function landscape(w, h, sky, sunCol, hills) {
  const c = canvas(w, h);
  vgradient(c, sky[0], sky[1]);
  fill(c, circle(w * 0.68, h * 0.42, h * 0.14), sunCol);
  hills.forEach(([col, base, amp, freq, phase]) => {
    fill(
      c,
      below((x) => h * base + Math.sin((x / w) * Math.PI * freq + phase) * h * amp + Math.sin((x / w) * 17 + phase) * h * 0.015),
      col,
    );
  });
  return c;
}
function skyline(w, h) {
  const c = canvas(w, h);
  vgradient(c, [24, 36, 72], [236, 150, 98]);
  fill(c, circle(w * 0.22, h * 0.3, 26), [255, 236, 200]);
  let x = 0,
    i = 0;
  while (x < w) {
    const bw = 30 + ((i * 37) % 45),
      bh = h * (0.25 + ((i * 53) % 40) / 100);
    fill(c, rect(x, h - bh, x + bw - 4, h), [30 + (i % 3) * 8, 30, 44]);
    for (let wy = h - bh + 10; wy < h - 10; wy += 16)
      for (let wx = x + 6; wx < x + bw - 12; wx += 12)
        if ((wx * 7 + wy * 3 + i) % 5 === 0) fill(c, rect(wx, wy, wx + 5, wy + 8), [255, 214, 120]);
    x += bw;
    i++;
  }
  fill(c, rect(w * 0.47, h * 0.18, w * 0.49, h), [40, 40, 56]); // the tower
  fill(c, circle(w * 0.48, h * 0.42, 14), [40, 40, 56]);
  return c;
}
function productShot(w, bg, draw) {
  const c = canvas(w, w);
  vgradient(c, bg, mix(bg, [255, 255, 255], 0.6));
  fill(c, (x, y) => ((x - w / 2) / (w * 0.35)) ** 2 + ((y - w * 0.86) / (w * 0.05)) ** 2 <= 1, [0, 0, 0], 0.15); // shadow
  draw(c, w);
  return c;
}
function avatar(w, bg, skin, hair) {
  const c = canvas(w, w);
  vgradient(c, bg, mix(bg, [0, 0, 0], 0.25));
  fill(c, (x, y) => ((x - w / 2) / (w * 0.36)) ** 2 + ((y - w * 1.02) / (w * 0.3)) ** 2 <= 1, mix(bg, [0, 0, 0], 0.5));
  fill(c, circle(w / 2, w * 0.4, w * 0.22), hair);
  fill(c, circle(w / 2, w * 0.44, w * 0.18), skin);
  return c;
}

const IMAGES = {
  'hero.png': () =>
    encodePng(
      landscape(
        640,
        360,
        [
          [255, 170, 110],
          [255, 226, 170],
        ],
        [255, 248, 220],
        [
          [[120, 80, 120], 0.62, 0.08, 2.2, 0.3],
          [[80, 56, 96], 0.72, 0.06, 3.1, 1.7],
          [[44, 34, 64], 0.84, 0.04, 4.3, 2.9],
        ],
      ),
    ),
  'office.jpg': () =>
    encodeJpeg(
      landscape(
        640,
        360,
        [
          [90, 150, 220],
          [200, 230, 250],
        ],
        [255, 255, 235],
        [
          [[90, 140, 90], 0.6, 0.07, 2.6, 1.1],
          [[60, 110, 70], 0.75, 0.05, 3.7, 0.4],
          [[40, 80, 50], 0.88, 0.03, 5.1, 2.2],
        ],
      ),
    ),
  'posts/berlin-skyline.jpg': () => encodeJpeg(skyline(640, 360)),
  'posts/alps.png': () =>
    encodePng(
      landscape(
        640,
        360,
        [
          [40, 90, 160],
          [220, 236, 250],
        ],
        [255, 255, 255],
        [
          [[230, 236, 245], 0.45, 0.2, 3.3, 0.0],
          [[100, 120, 150], 0.7, 0.08, 5.0, 1.0],
          [[40, 70, 60], 0.86, 0.03, 7.0, 2.0],
        ],
      ),
    ),
  'authors/anna.png': () => encodePng(avatar(128, [120, 170, 220], [240, 200, 170], [120, 70, 40])),
  'authors/jonas.png': () => encodePng(avatar(128, [220, 170, 110], [220, 180, 150], [40, 30, 30])),
  'authors/mei.png': () => encodePng(avatar(128, [150, 200, 150], [236, 204, 170], [20, 20, 20])),
  'products/mug.png': () =>
    encodePng(
      productShot(320, [210, 228, 240], (c, w) => {
        fill(c, rect(w * 0.3, w * 0.35, w * 0.62, w * 0.84), [200, 60, 50]);
        fill(
          c,
          (x, y) => {
            const d = Math.hypot(x - w * 0.64, y - w * 0.58);
            return d < w * 0.12 && d > w * 0.07 && x > w * 0.62;
          },
          [200, 60, 50],
        );
        fill(c, rect(w * 0.3, w * 0.35, w * 0.62, w * 0.39), [160, 40, 35]);
      }),
    ),
  'products/lamp.png': () =>
    encodePng(
      productShot(320, [236, 228, 210], (c, w) => {
        fill(c, (x, y) => y > w * 0.22 && y < w * 0.42 && Math.abs(x - w / 2) < w * 0.08 + (y - w * 0.22) * 0.6, [240, 190, 60]);
        fill(c, rect(w * 0.48, w * 0.42, w * 0.52, w * 0.82), [60, 60, 60]);
        fill(c, rect(w * 0.36, w * 0.8, w * 0.64, w * 0.85), [60, 60, 60]);
      }),
    ),
  'products/backpack.jpg': () =>
    encodeJpeg(
      productShot(320, [200, 214, 200], (c, w) => {
        fill(c, (x, y) => ((x - w / 2) / (w * 0.2)) ** 2 + ((y - w * 0.55) / (w * 0.3)) ** 2 <= 1 && y > w * 0.3, [46, 86, 120]);
        fill(c, rect(w * 0.38, w * 0.6, w * 0.62, w * 0.75), [36, 70, 100]);
        fill(
          c,
          (x, y) => {
            const d = Math.hypot(x - w / 2, y - w * 0.3);
            return d < w * 0.09 && d > w * 0.06 && y < w * 0.3;
          },
          [30, 30, 30],
        );
      }),
    ),
  'products/notebook.png': () =>
    encodePng(
      productShot(320, [230, 230, 236], (c, w) => {
        fill(c, rect(w * 0.3, w * 0.2, w * 0.7, w * 0.82), [30, 60, 50]);
        fill(c, rect(w * 0.66, w * 0.2, w * 0.68, w * 0.82), [200, 160, 60]);
        fill(c, rect(w * 0.36, w * 0.3, w * 0.6, w * 0.36), [220, 220, 200]);
      }),
    ),
};

const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="64" viewBox="0 0 240 64">
  <title>Northwind Goods</title>
  <rect width="240" height="64" rx="12" fill="#1f3a5f"/>
  <path d="M16 48 L32 16 L40 32 L48 20 L64 48 Z" fill="#f4c26b"/>
  <circle cx="54" cy="18" r="5" fill="#ffffff"/>
  <text x="76" y="40" font-family="Helvetica, Arial, sans-serif" font-size="20" font-weight="700" fill="#ffffff">Northwind</text>
</svg>
`;

export function writeSampleImages(dir) {
  const sizes = {};
  for (const [name, make] of Object.entries(IMAGES)) {
    const file = join(dir, name);
    mkdirSync(dirname(file), { recursive: true });
    const buf = make();
    writeFileSync(file, buf);
    sizes[name] = buf.length;
  }
  writeFileSync(join(dir, 'logo.svg'), LOGO_SVG);
  sizes['logo.svg'] = Buffer.byteLength(LOGO_SVG);
  return sizes;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2] ?? 'content/demo/media';
  const sizes = writeSampleImages(dir);
  const total = Object.values(sizes).reduce((a, b) => a + b, 0);
  for (const [n, s] of Object.entries(sizes)) console.log(`${String(s).padStart(8)}  ${n}`);
  console.log(`${String(total).padStart(8)}  total (${(total / 1024).toFixed(1)} KiB) in ${dir}`);
}
