import { InputError } from '../../core/errors.ts';

/** A non-empty list of finite numbers, or an InputError naming the argument and the first bad entry. */
export function finiteNumbers(value: unknown, name: string): number[] {
  if (!Array.isArray(value)) throw new InputError(`${name} must be a list of numbers`);
  if (value.length === 0) throw new InputError(`${name} is empty`);
  const bad = value.findIndex((v) => typeof v !== 'number' || !Number.isFinite(v));
  if (bad >= 0) throw new InputError(`${name}[${bad}] is not a finite number`);
  return value as number[];
}
