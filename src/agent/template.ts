/**
 * Fills a prompt template: `{name}` takes the value of `name`, `{{` and `}}` are literal braces.
 * A placeholder without a value is a programming error and throws, so a prompt never reaches a
 * model with a hole in it.
 */
export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (match, name: string | undefined) => {
    if (match === '{{') return '{';
    if (match === '}}') return '}';
    const key = name as string;
    if (!Object.hasOwn(values, key)) throw new Error(`prompt template placeholder {${key}} has no value`);
    return values[key] as string;
  });
}
