import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { deflateSync } from "node:zlib";

// `npx tsx tools/demo-images/generate.ts`: the demo store's product pictures (apps/api/static/demo/),
// small PNGs drawn here (a colour field with a pattern per category), a few KB each.

const OUT = resolve(import.meta.dirname, "..", "..", "apps", "api", "static", "demo");
const SIZE = 480;

type Rgb = [number, number, number];
type Pattern = "stripes" | "checks" | "dots" | "waves";

// One picture per demo product (handle, colour, pattern by category), as in seed-demo-store.ts.
const PRODUCTS: Array<[string, Rgb, Pattern]> = [
  ["linen-shirt", [232, 222, 200], "stripes"],
  ["oxford-shirt", [170, 196, 222], "stripes"],
  ["crew-t-shirt", [245, 245, 240], "stripes"],
  ["long-sleeve-tee", [90, 110, 140], "stripes"],
  ["flannel-shirt", [160, 50, 45], "checks"],
  ["merino-sweater", [60, 80, 70], "waves"],
  ["cable-knit-sweater", [225, 215, 190], "waves"],
  ["hoodie", [120, 120, 125], "waves"],
  ["cardigan", [150, 110, 80], "waves"],
  ["sweatshirt", [200, 170, 120], "waves"],
  ["chinos", [190, 170, 130], "dots"],
  ["selvedge-jeans", [40, 60, 100], "dots"],
  ["linen-trousers", [215, 205, 185], "dots"],
  ["corduroy-pants", [130, 90, 50], "stripes"],
  ["shorts", [100, 140, 110], "dots"],
  ["wool-beanie", [180, 60, 60], "waves"],
  ["canvas-tote", [220, 205, 170], "checks"],
  ["leather-belt", [100, 60, 30], "stripes"],
  ["wool-scarf", [110, 40, 70], "checks"],
  ["sunglasses", [30, 30, 35], "dots"],
];

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An RGB PNG of `pixel(x, y)`. */
function png(pixel: (x: number, y: number) => Rgb): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIZE, 0);
  header.writeUInt32BE(SIZE, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const raw = Buffer.alloc(SIZE * (SIZE * 3 + 1));
  for (let y = 0; y < SIZE; y++) {
    const row = y * (SIZE * 3 + 1);
    raw[row] = 0;
    for (let x = 0; x < SIZE; x++) raw.set(pixel(x, y), row + 1 + x * 3);
  }
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

const shade = ([r, g, b]: Rgb, f: number): Rgb => [Math.round(r * f), Math.round(g * f), Math.round(b * f)];

function draw(colour: Rgb, pattern: Pattern): Buffer {
  const dark = shade(colour, 0.82);
  const inside = (x: number, y: number): boolean => {
    switch (pattern) {
      case "stripes":
        return Math.floor(x / 24) % 2 === 0;
      case "checks":
        return (Math.floor(x / 40) + Math.floor(y / 40)) % 2 === 0;
      case "dots":
        return ((x % 40) - 20) ** 2 + ((y % 40) - 20) ** 2 < 36;
      case "waves":
        return Math.floor((y + Math.round(8 * Math.sin(x / 16))) / 20) % 2 === 0;
    }
  };
  return png((x, y) => (inside(x, y) ? dark : colour));
}

mkdirSync(OUT, { recursive: true });
for (const [handle, colour, pattern] of PRODUCTS) {
  const file = join(OUT, `${handle}.png`);
  const data = draw(colour, pattern);
  writeFileSync(file, data);
  console.log(`${file} ${data.length} bytes`);
}
