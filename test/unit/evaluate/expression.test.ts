import { describe, expect, test } from 'bun:test';
import { InputError } from '../../../src/core/errors.ts';
import { denominators, EvaluationError, evaluate, identifiers, parseExpression, showExpression } from '../../../src/evaluate/expression.ts';

const M = new Map([
  ['a', 2],
  ['b', 3],
  ['zero', 0],
  ['best.comparisons', 50],
  ['time_s', 0.5],
]);
const value = (src: string) => evaluate(parseExpression(src), M);
const parseError = (src: string) => {
  try {
    parseExpression(src);
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    return (err as Error).message;
  }
  throw new Error(`'${src}' parsed`);
};
const evalError = (src: string) => {
  try {
    value(src);
  } catch (err) {
    expect(err).toBeInstanceOf(EvaluationError);
    return (err as Error).message;
  }
  throw new Error(`'${src}' evaluated`);
};

describe('contract expressions: what they compute', () => {
  test('arithmetic with the usual precedence; ** and ^ are powers, right-associative, above unary minus', () => {
    expect(value('a + b * 2')).toBe(8);
    expect(value('(a + b) * 2')).toBe(10);
    expect(value('b / a')).toBe(1.5);
    expect(value('b % a')).toBe(1);
    expect(value('2 ** 3 ** 2')).toBe(512);
    expect(value('2 ^ 10')).toBe(1024);
    expect(value('-2 ** 2')).toBe(-4);
    expect(value('--a')).toBe(2);
    expect(value('2 ** -1')).toBe(0.5);
    expect(value('1.5e3 + .5')).toBe(1500.5);
  });

  test('comparisons, chained comparisons and both spellings of and, or, not', () => {
    expect(value('a < b')).toBe(true);
    expect(value('a < b < 4')).toBe(true);
    expect(value('a < b < 3')).toBe(false);
    expect(value('a == 2 and b != 2')).toBe(true);
    expect(value('a == 2 && not (b >= 3)')).toBe(false);
    expect(value('a > b || !(a > b)')).toBe(true);
    expect(value('true and not false')).toBe(true);
  });

  test('dotted measurement names and the whitelisted functions', () => {
    expect(value('best.comparisons / time_s')).toBe(100);
    expect(value('abs(a - b) + min(a, b) + max(a, b, 10)')).toBe(13);
    expect(value('sqrt(16) + exp(0) + log(100, 10) + round(b / a * 1.1, 2)')).toBe(8.65);
    expect(value('log(exp(2))')).toBe(2);
  });

  test('identifiers and denominators are reported for the gate', () => {
    const e = parseExpression('(a + best.comparisons) / (b - a) + a % max(zero, 1) + a / 1');
    expect(identifiers(e)).toEqual(['a', 'best.comparisons', 'b', 'zero']);
    expect(denominators(e).map(showExpression)).toEqual(['b - a', 'max(zero, 1)', '1']);
    expect(identifiers(parseExpression('2 + 3'))).toEqual([]);
  });
});

describe('contract expressions: bad and hostile input', () => {
  test('a syntax error is one line naming the column', () => {
    expect(parseError('a +')).toBe("expression 'a +': column 4: the expression ends too early");
    expect(parseError('(a + b')).toBe("expression '(a + b': column 7: expected a closing parenthesis (opened at column 1)");
    expect(parseError('a b')).toBe("expression 'a b': column 3: unexpected 'b'");
    expect(parseError('a $ b')).toBe('expression \'a $ b\': column 3: unexpected character "$"');
    expect(parseError('max(a,')).toContain('column 7: the expression ends too early');
    expect(parseError('sqrt(a, b)')).toContain('sqrt takes 1 argument, got 2');
    expect(parseError('')).toBe('expression is empty');
    expect(parseError('1e999')).toContain('number 1e999 is out of range');
  });

  test('no JavaScript reaches the evaluator: calls, property access, strings and brackets are refused', () => {
    for (const src of ['eval("1")', 'Function("return 1")()', 'process.exit(1)', 'require("fs")', 'constructor.constructor("x")()', 'a["constructor"]', "'x'", '`x`', 'a; b', 'a = 1', '() => 1', 'import("fs")']) {
      expect(() => parseExpression(src)).toThrow(InputError);
    }
    expect(parseError('process.exit(1)')).toContain("unknown function 'process.exit'");
  });

  test('names of JavaScript object properties are just unknown names', () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'prototype', 'valueOf', 'a.constructor', 'a.__proto__']) {
      expect(evalError(name)).toBe(`'${name}' was not measured`);
      expect(identifiers(parseExpression(`${name} + 1`))).toEqual([name]);
    }
  });

  test('nesting, length and argument counts are bounded, so the parser cannot be made to exhaust the stack', () => {
    expect(parseError(`${'('.repeat(500)}1${')'.repeat(500)}`)).toContain('nested more than 64 deep');
    expect(parseError(`${'-'.repeat(1000)}1`)).toContain('nested more than 64 deep');
    expect(parseError(`${'not '.repeat(200)}true`)).toContain('nested more than 64 deep');
    expect(parseError('1+'.repeat(1500) + '1')).toContain('longer than 2000 characters');
    expect(parseError(`max(${Array(100).fill('1').join(',')})`)).toContain('max takes 1 to 64 arguments, got 100');
  });

  test('division by zero, non-finite results and mixed types are evaluation errors naming the part', () => {
    expect(evalError('a / zero')).toBe('zero is 0 in a / zero');
    expect(evalError('a % (b - 3)')).toBe('b - 3 is 0 in a % (b - 3)');
    expect(evalError('10 ** 400')).toBe('10 ** 400 is not a finite number');
    expect(evalError('sqrt(-1)')).toBe('sqrt(-1) is not a finite number');
    expect(evalError('(a < b) + 1')).toBe('a < b is true/false where a number is needed');
    expect(evalError('a and b')).toBe('a is a number where true/false is needed');
    expect(evalError('missing > 0')).toBe("'missing' was not measured");
  });
});
