// bibtex-parse ships no types: the part of its API the library reader uses.
declare module 'bibtex-parse' {
  export type Value = { value: string | number; datatype: 'braced' | 'quoted' | 'number' | 'identifier'; raw: string };
  export type Field = { name: string; value: string | number | Value[]; datatype: Value['datatype'] | 'concatinate'; raw: string };
  export type Item =
    | { itemtype: 'entry'; type: string; key: string; fields: Field[]; raw: string }
    | { itemtype: 'string'; name: string; value: string | number | Value[]; datatype: Field['datatype']; raw: string }
    | { itemtype: 'preamble' | 'comment' };
  export function parse(bibtex: string, options?: { number?: 'auto' | 'number' | 'bigint' | 'string' }): Item[];
}
