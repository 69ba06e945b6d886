/** A JSON pointer as a reader writes the key: `/pipeline/3/depends_on` → `pipeline[3].depends_on`. */
export function keyPath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, p) => (/^\d+$/.test(p) ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), '');
}
