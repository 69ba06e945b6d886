import { InputError } from '../core/errors.ts';

/**
 * The metric contract's expressions (formula, invariants, correctness, ceiling) over measurement
 * names. A contract is written by a model and by people, so it is parsed here into a small tree
 * and walked: nothing of it reaches `eval`, `Function` or a JavaScript object's properties, and a
 * name is only ever looked up in the measurements given (`constructor` is an unknown name).
 */
export type Expr =
  | { kind: 'number'; value: number; at: number }
  | { kind: 'bool'; value: boolean; at: number }
  | { kind: 'name'; name: string; at: number }
  | { kind: 'unary'; op: '-' | '+' | 'not'; arg: Expr; at: number }
  | { kind: 'binary'; op: BinaryOp; left: Expr; right: Expr; at: number }
  | { kind: 'call'; fn: string; args: Expr[]; at: number };

type BinaryOp = '+' | '-' | '*' | '/' | '%' | '**' | '<' | '<=' | '>' | '>=' | '==' | '!=' | 'and' | 'or';
export type Value = number | boolean;

/** Longer than any contract expression; a guard against a file built to exhaust the parser. */
const MAX_LENGTH = 2000;
/** Nesting deeper than this is not a formula; it would only exhaust the stack. */
const MAX_DEPTH = 64;

const FUNCTIONS: ReadonlyMap<string, { arity: [number, number]; fn: (...xs: number[]) => number }> = new Map([
  ['abs', { arity: [1, 1], fn: Math.abs }],
  ['min', { arity: [1, 64], fn: Math.min }],
  ['max', { arity: [1, 64], fn: Math.max }],
  ['sqrt', { arity: [1, 1], fn: Math.sqrt }],
  ['log', { arity: [1, 2], fn: (x: number, base?: number) => (base === undefined ? Math.log(x) : Math.log(x) / Math.log(base)) }],
  ['exp', { arity: [1, 1], fn: Math.exp }],
  ['round', { arity: [1, 2], fn: (x: number, digits = 0) => Math.round(x * 10 ** digits) / 10 ** digits }],
] as const);
const WORDS = new Set(['and', 'or', 'not', 'true', 'false']);

type Token = { t: 'num' | 'name' | 'op' | 'end'; v: string; at: number };

/** A name: letters, digits and `_`, dotted parts allowed (`best.comparisons`, `node_1.time_s`). */
const NAME = /[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*/y;
const NUMBER = /(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?/y;
const OPERATORS = ['**', '<=', '>=', '==', '!=', '&&', '||', '+', '-', '*', '/', '%', '^', '<', '>', '!', '(', ')', ','];

/** One line naming the expression and the 1-based column: what a contract author needs to fix it. */
function fail(src: string, at: number, what: string): InputError {
  const shown = src.length > 80 ? `${src.slice(0, 77)}...` : src;
  return new InputError(`expression '${shown}': column ${at + 1}: ${what}`, 'write numbers, measurement names, + - * / % ** ( ), comparisons, and/or/not, and abs min max sqrt log exp round');
}

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i] as string;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    NUMBER.lastIndex = i;
    NAME.lastIndex = i;
    const num = /[\d.]/.test(c) ? NUMBER.exec(src) : null;
    const name = num ? null : NAME.exec(src);
    if (num) {
      out.push({ t: 'num', v: num[0], at: i });
      i += num[0].length;
    } else if (name) {
      out.push({ t: 'name', v: name[0], at: i });
      i += name[0].length;
    } else {
      const op = OPERATORS.find((o) => src.startsWith(o, i));
      if (!op) throw fail(src, i, `unexpected character ${JSON.stringify(c)}`);
      out.push({ t: 'op', v: op, at: i });
      i += op.length;
    }
  }
  out.push({ t: 'end', v: '', at: src.length });
  return out;
}

/** The expression's tree; a text that is not an expression is an InputError naming the column. */
export function parseExpression(src: string): Expr {
  if (typeof src !== 'string' || src.trim() === '') throw new InputError('expression is empty', 'write the formula over measurement names');
  if (src.length > MAX_LENGTH) throw fail(src, MAX_LENGTH, `longer than ${MAX_LENGTH} characters`);
  const tokens = tokenize(src);
  let k = 0;
  let depth = 0;
  const peek = () => tokens[k] as Token;
  const is = (...ops: string[]) => (peek().t === 'op' || peek().t === 'name') && ops.includes(peek().v);
  const take = () => tokens[k++] as Token;
  const deeper = <T>(at: number, f: () => T): T => {
    if (++depth > MAX_DEPTH) throw fail(src, at, `nested more than ${MAX_DEPTH} deep`);
    try {
      return f();
    } finally {
      depth--;
    }
  };
  const binary = (next: () => Expr, ops: Record<string, BinaryOp>) => (): Expr => {
    let left = next();
    while (is(...Object.keys(ops))) {
      const op = take();
      left = { kind: 'binary', op: ops[op.v] as BinaryOp, left, right: next(), at: op.at };
    }
    return left;
  };

  const or = (): Expr => binary(and, { or: 'or', '||': 'or' })();
  const and = (): Expr => binary(not, { and: 'and', '&&': 'and' })();
  const not = (): Expr => {
    if (!is('not', '!')) return comparison();
    const op = take();
    return deeper(op.at, () => ({ kind: 'unary', op: 'not', arg: not(), at: op.at }));
  };
  const COMPARE: Record<string, BinaryOp> = { '<': '<', '<=': '<=', '>': '>', '>=': '>=', '==': '==', '!=': '!=' };
  // a < b < c reads as a < b and b < c, as in the formulas contracts are copied from
  const comparison = (): Expr => {
    const first = additive();
    let left = first;
    let result: Expr | null = null;
    while (is(...Object.keys(COMPARE))) {
      const op = take();
      const right = additive();
      const cmp: Expr = { kind: 'binary', op: COMPARE[op.v] as BinaryOp, left, right, at: op.at };
      result = result === null ? cmp : { kind: 'binary', op: 'and', left: result, right: cmp, at: op.at };
      left = right;
    }
    return result ?? first;
  };
  const additive = (): Expr => binary(multiplicative, { '+': '+', '-': '-' })();
  const multiplicative = (): Expr => binary(unary, { '*': '*', '/': '/', '%': '%' })();
  // -2 ** 2 is -(2 ** 2), as in Python and in mathematics
  const unary = (): Expr => {
    if (!is('-', '+')) return power();
    const op = take();
    return deeper(op.at, () => ({ kind: 'unary', op: op.v as '-' | '+', arg: unary(), at: op.at }));
  };
  const power = (): Expr => {
    const base = primary();
    if (!is('**', '^')) return base;
    const op = take();
    // right-associative: 2 ** 3 ** 2 is 2 ** 9
    return deeper(op.at, () => ({ kind: 'binary', op: '**', left: base, right: unary(), at: op.at }));
  };
  const primary = (): Expr => {
    const tok = take();
    if (tok.t === 'num') {
      const value = Number(tok.v);
      if (!Number.isFinite(value)) throw fail(src, tok.at, `number ${tok.v} is out of range`);
      return { kind: 'number', value, at: tok.at };
    }
    if (tok.t === 'op' && tok.v === '(') {
      const inner = deeper(tok.at, or);
      expect(')', 'a closing parenthesis', tok.at);
      return inner;
    }
    if (tok.t === 'name' && (tok.v === 'true' || tok.v === 'false')) return { kind: 'bool', value: tok.v === 'true', at: tok.at };
    if (tok.t === 'name' && !WORDS.has(tok.v)) {
      if (!is('(')) return { kind: 'name', name: tok.v, at: tok.at };
      const fn = FUNCTIONS.get(tok.v);
      if (!fn) throw fail(src, tok.at, `unknown function '${tok.v}' (known: ${[...FUNCTIONS.keys()].join(', ')})`);
      take();
      const args: Expr[] = [];
      if (!is(')')) {
        do args.push(deeper(tok.at, or));
        while (is(',') && take());
      }
      expect(')', `')' to close ${tok.v}(`, tok.at);
      const [lo, hi] = fn.arity;
      if (args.length < lo || args.length > hi) throw fail(src, tok.at, `${tok.v} takes ${lo === hi ? lo : `${lo} to ${hi}`} argument${hi > 1 ? 's' : ''}, got ${args.length}`);
      return { kind: 'call', fn: tok.v, args, at: tok.at };
    }
    throw fail(src, tok.at, tok.t === 'end' ? 'the expression ends too early' : `unexpected '${tok.v}'`);
  };
  const expect = (op: string, what: string, opened: number) => {
    if (is(op)) return take();
    throw fail(src, peek().at, `expected ${what} (opened at column ${opened + 1})`);
  };

  const tree = or();
  if (peek().t !== 'end') throw fail(src, peek().at, `unexpected '${peek().v}'`);
  return tree;
}

/** The measurement names an expression reads, each once, in order of first use. */
export function identifiers(expr: Expr): string[] {
  const out = new Set<string>();
  walk(expr, (e) => {
    if (e.kind === 'name') out.add(e.name);
  });
  return [...out];
}

/** What each division and remainder of the expression divides by. */
export function denominators(expr: Expr): Expr[] {
  const out: Expr[] = [];
  walk(expr, (e) => {
    if (e.kind === 'binary' && (e.op === '/' || e.op === '%')) out.push(e.right);
  });
  return out;
}

function walk(e: Expr, visit: (e: Expr) => void): void {
  visit(e);
  if (e.kind === 'unary') walk(e.arg, visit);
  else if (e.kind === 'binary') {
    walk(e.left, visit);
    walk(e.right, visit);
  } else if (e.kind === 'call') for (const a of e.args) walk(a, visit);
}

/** The expression written back, for findings: fully parenthesised where it nests. */
export function showExpression(e: Expr): string {
  switch (e.kind) {
    case 'number':
    case 'bool':
      return String(e.value);
    case 'name':
      return e.name;
    case 'unary':
      return e.op === 'not' ? `not ${showExpression(e.arg)}` : `${e.op}${showExpression(e.arg)}`;
    case 'call':
      return `${e.fn}(${e.args.map(showExpression).join(', ')})`;
    case 'binary': {
      const side = (x: Expr) => (x.kind === 'binary' ? `(${showExpression(x)})` : showExpression(x));
      return `${side(e.left)} ${e.op} ${side(e.right)}`;
    }
  }
}

/** Why an expression has no value on some measurements: a name they lack, a division by zero, a type that does not fit. */
export class EvaluationError extends Error {
  constructor(
    message: string,
    readonly missing: string | null = null,
  ) {
    super(message);
    this.name = 'EvaluationError';
  }
}

/**
 * The value of the expression on some measurements (a Map, so only names put there resolve).
 * Arithmetic takes numbers, and/or/not take truth values (a comparison's); a division by zero, a
 * result that is not a finite number, or an unknown name is an EvaluationError.
 */
export function evaluate(expr: Expr, values: ReadonlyMap<string, number>): Value {
  const num = (e: Expr): number => {
    const v = evaluate(e, values);
    if (typeof v !== 'number') throw new EvaluationError(`${showExpression(e)} is true/false where a number is needed`);
    return v;
  };
  const truth = (e: Expr): boolean => {
    const v = evaluate(e, values);
    if (typeof v !== 'boolean') throw new EvaluationError(`${showExpression(e)} is a number where true/false is needed`);
    return v;
  };
  const finite = (x: number, e: Expr): number => {
    if (!Number.isFinite(x)) throw new EvaluationError(`${showExpression(e)} is not a finite number`);
    return x;
  };
  switch (expr.kind) {
    case 'number':
    case 'bool':
      return expr.value;
    case 'name': {
      const v = values.get(expr.name);
      if (v === undefined) throw new EvaluationError(`'${expr.name}' was not measured`, expr.name);
      return v;
    }
    case 'unary':
      if (expr.op === 'not') return !truth(expr.arg);
      return expr.op === '-' ? -num(expr.arg) : num(expr.arg);
    case 'call': {
      const fn = FUNCTIONS.get(expr.fn);
      if (!fn) throw new EvaluationError(`unknown function '${expr.fn}'`);
      return finite(fn.fn(...expr.args.map(num)), expr);
    }
    case 'binary': {
      const { op, left, right } = expr;
      if (op === 'and') return truth(left) && truth(right);
      if (op === 'or') return truth(left) || truth(right);
      const a = num(left);
      const b = num(right);
      switch (op) {
        case '+':
          return finite(a + b, expr);
        case '-':
          return finite(a - b, expr);
        case '*':
          return finite(a * b, expr);
        case '/':
        case '%':
          if (b === 0) throw new EvaluationError(`${showExpression(right)} is 0 in ${showExpression(expr)}`);
          return finite(op === '/' ? a / b : a % b, expr);
        case '**':
          return finite(a ** b, expr);
        case '<':
          return a < b;
        case '<=':
          return a <= b;
        case '>':
          return a > b;
        case '>=':
          return a >= b;
        case '==':
          return a === b;
        case '!=':
          return a !== b;
      }
    }
  }
}
