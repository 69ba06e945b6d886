/**
 * Settings a researcher can write into the experiment Markdown itself, as `Key: value` lines
 * (optionally as a list item or in bold): `Partition: gpu`.
 */
export function experimentLine(markdown: string, key: string): string | null {
  const re = new RegExp(`^\\s*(?:[-*]\\s+)?(?:\\*\\*)?${key}(?:\\*\\*)?\\s*:\\s*(?:\\*\\*)?\\s*([^\\s*][^\\n]*?)\\s*$`, 'im');
  const value = re.exec(markdown)?.[1]?.replace(/^`|`$/g, '').trim();
  return value ? value : null;
}

/** The partition line of an experiment file: the explicit value of the partition setting. */
export function experimentPartition(markdown: string): string | null {
  return experimentLine(markdown, 'partition');
}
