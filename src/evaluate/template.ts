/**
 * A prompt template with `{name}` placeholders filled; `{{` and `}}` are literal braces. A
 * placeholder the values lack is a bug in the caller, so it fails loudly.
 */
export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name: string | undefined) => {
    if (whole === '{{') return '{';
    if (whole === '}}') return '}';
    const value = name === undefined ? undefined : values[name];
    if (value === undefined) throw new Error(`prompt template placeholder {${name}} has no value`);
    return value;
  });
}
