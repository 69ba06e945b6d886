import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { formatNumber, numbersIn, unbackedNumbers } from '../../../src/science/numbers.ts';

const SRC = resolve(import.meta.dir, '../../../src');
const sources = () =>
  readdirSync(SRC, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => join(e.parentPath, e.name));
const definers = (pattern: RegExp) => sources().filter((f) => pattern.test(readFileSync(f, 'utf8'))).map((f) => relative(SRC, f)).sort();

describe('one implementation each', () => {
  test('numbersIn and formatNumber are defined once, in science/, for the paper and the plots alike', () => {
    expect(definers(/export function numbersIn\b/)).toEqual(['science/numbers.ts']);
    expect(definers(/export function formatNumber\b/)).toEqual(['science/numbers.ts']);
    expect(definers(/export function unbackedNumbers\b/)).toEqual(['science/numbers.ts']);
  });

  test('one module runs pdfinfo', () => {
    expect(definers(/Bun\.which\('pdfinfo'/)).toEqual(['paper/pdf.ts']);
  });
});

describe('numbersIn', () => {
  test('standalone: digits of names are not numbers, thousands separators are read', () => {
    expect(numbersIn('node_e3ab948b at 2,000 elements, log2 of 8 and ratio 2.4')).toEqual([2000, 8, 2.4]);
  });

  test('every: each run of digits, with its sign, minus sign and exponent', () => {
    expect(numbersIn('node_e3ab948b: \u22123.5e-4 and -96.5, 20,573', 'every')).toEqual([3, 948, -3.5e-4, -96.5, 20573]);
    expect(unbackedNumbers('node_e3 reached 20,573', [20573])).toEqual([3]);
  });
});

describe('formatNumber', () => {
  test('latex, the paper anchors: grouped integers, three significant digits, powers of ten in math', () => {
    expect([30850, 0.97312, 1234.567, -96.76319379917113, 0.00001234].map((v) => formatNumber(v))).toEqual(['30{,}850', '0.973', '1{,}235', '\\ensuremath{-}96.8', '\\ensuremath{1.23\\times10^{-5}}']);
  });

  test('plain, the captions: whole numbers whole, four significant digits', () => {
    expect([20573, 48.7581, -97.9491, 0.000123456, 123456.7].map((v) => formatNumber(v, 'plain'))).toEqual(['20573', '48.76', '-97.95', '0.0001235', '123457']);
  });
});
