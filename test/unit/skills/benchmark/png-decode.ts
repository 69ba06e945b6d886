import { inflateSync } from 'node:zlib';

/** Enough of PNG to read back what the renderer wrote: 8-bit RGBA, non-interlaced. */

export const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export type Image = { width: number; height: number; rgba: Uint8Array };

/** Width and height from the IHDR chunk, which must come first. */
export function pngSize(png: Uint8Array): { width: number; height: number } {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  if (!PNG_SIGNATURE.every((b, i) => png[i] === b)) throw new Error('not a PNG: bad signature');
  if (new TextDecoder().decode(png.subarray(12, 16)) !== 'IHDR') throw new Error('not a PNG: IHDR is not the first chunk');
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

export function decodePng(png: Uint8Array): Image {
  const { width, height } = pngSize(png);
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  if (png[24] !== 8 || png[25] !== 6 || png[28] !== 0) throw new Error('only 8-bit RGBA, non-interlaced PNGs are decoded here');
  const idat: Uint8Array[] = [];
  for (let off = 8; off < png.length; ) {
    const length = view.getUint32(off);
    const type = new TextDecoder().decode(png.subarray(off + 4, off + 8));
    if (type === 'IDAT') idat.push(png.subarray(off + 8, off + 8 + length));
    off += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * 4;
  const rgba = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)] as number;
    for (let x = 0; x < stride; x++) {
      const byte = raw[y * (stride + 1) + 1 + x] as number;
      const a = x >= 4 ? (rgba[y * stride + x - 4] as number) : 0;
      const b = y > 0 ? (rgba[(y - 1) * stride + x] as number) : 0;
      const c = x >= 4 && y > 0 ? (rgba[(y - 1) * stride + x - 4] as number) : 0;
      rgba[y * stride + x] = (byte + predictor(filter, a, b, c)) & 0xff;
    }
  }
  return { width, height, rgba };
}

function predictor(filter: number, a: number, b: number, c: number): number {
  switch (filter) {
    case 0:
      return 0;
    case 1:
      return a;
    case 2:
      return b;
    case 3:
      return (a + b) >> 1;
    case 4: {
      const p = a + b - c;
      const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
      return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
    }
    default:
      throw new Error(`unknown PNG filter ${filter}`);
  }
}

/** How many pixels have this #rrggbb colour, each channel within `tolerance`. */
export function countColour(image: Image, hex: string, tolerance = 0): number {
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
  const near = (v: number | undefined, want: number) => Math.abs((v as number) - want) <= tolerance;
  let n = 0;
  for (let i = 0; i < image.rgba.length; i += 4) if (near(image.rgba[i], r) && near(image.rgba[i + 1], g) && near(image.rgba[i + 2], b)) n++;
  return n;
}

/** Pixels darker than mid grey inside a rectangle: where text and lines were drawn. */
export function darkPixels(image: Image, x0: number, y0: number, x1: number, y1: number): number {
  let n = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = (y * image.width + x) * 4;
      if ((image.rgba[i] as number) + (image.rgba[i + 1] as number) + (image.rgba[i + 2] as number) < 3 * 100) n++;
    }
  }
  return n;
}
