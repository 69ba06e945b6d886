import { InvalidRecordError } from '../../../core/errors.ts';

/**
 * Rows of a delimited text file (RFC 4180: fields in double quotes may hold the delimiter, line
 * breaks and "" for a quote). Blank lines are skipped; a leading byte-order mark is ignored.
 */
export function parseDelimited(text: string, delimiter: ',' | '\t', what: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endRow = () => {
    row.push(field);
    if (row.length > 1 || row[0] !== '') rows.push(row);
    row = [];
    field = '';
  };
  for (; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c !== '"') field += c;
      else if (text[i + 1] === '"') {
        field += '"';
        i++;
      } else quoted = false;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === delimiter) {
      row.push(field);
      field = '';
    } else if (c === '\n') endRow();
    else if (c !== '\r') field += c;
  }
  if (quoted) throw new InvalidRecordError(`${what} has a quoted field that is never closed`);
  if (field !== '' || row.length > 0) endRow();
  return rows;
}
