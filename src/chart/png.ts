import { initWasm, Resvg } from '@resvg/resvg-wasm';
import wasmPath from '@resvg/resvg-wasm/index_bg.wasm' with { type: 'file' };
import fontPath from 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf' with { type: 'file' };

/**
 * SVG to PNG with resvg compiled to WebAssembly. The wasm module and the font are embedded in the
 * binary (file imports), so rendering needs nothing on disk and looks the same on every machine.
 */

/** Pixels per SVG unit: an 800×500 chart becomes a 1600×1000 PNG, sharp enough for a paper. */
const PNG_SCALE = 2;

let font: Promise<Uint8Array> | undefined;

/** Initialises the wasm module once, on the first render; returns the font every render needs. */
function ready(): Promise<Uint8Array> {
  font ??= (async () => {
    await initWasm(await Bun.file(wasmPath).arrayBuffer());
    return new Uint8Array(await Bun.file(fontPath).arrayBuffer());
  })();
  return font;
}

export type Png = { bytes: Uint8Array; width: number; height: number };

export async function svgToPng(svg: string): Promise<Png> {
  const fontBuffer = await ready();
  const renderer = new Resvg(svg, {
    font: { fontBuffers: [fontBuffer], defaultFontFamily: 'DejaVu Sans', sansSerifFamily: 'DejaVu Sans' },
    fitTo: { mode: 'zoom', value: PNG_SCALE },
    background: '#ffffff',
  });
  try {
    const image = renderer.render();
    try {
      return { bytes: image.asPng(), width: image.width, height: image.height };
    } finally {
      image.free();
    }
  } finally {
    renderer.free();
  }
}
