import { parseDocument } from 'yaml';
import { InputError } from '../errors.ts';

/**
 * Parse a user's YAML file with the `yaml` package, for its errors: they carry a position, and
 * duplicate keys are refused. Every failure is one InputError naming the file (and line).
 */
export function parseYamlFile(text: string, file: string): unknown {
  const doc = parseDocument(text);
  const syntax = doc.errors[0];
  if (syntax) {
    const pos = syntax.linePos?.[0];
    const what = firstLine(syntax.message).replace(/ at line \d+, column \d+:?$/, '');
    throw new InputError(`${file}${pos ? `:${pos.line}:${pos.col}` : ''}: ${what}`, 'fix the YAML syntax');
  }
  try {
    return doc.toJS();
  } catch (err) {
    // e.g. alias expansion past the limit: input, not a bug
    throw new InputError(`${file}: ${firstLine((err as Error).message)}`, 'fix the YAML');
  }
}

function firstLine(s: string): string {
  return s.split('\n')[0]?.trim() ?? s;
}
