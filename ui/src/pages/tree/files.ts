import type { FileTreeEntry, FilesChanged } from './types.ts';

export type FileChange = 'added' | 'modified';

/** The files of a /filetree answer, in its order (directories first, names sorted). */
export function filesOf(tree: FileTreeEntry | undefined): FileTreeEntry[] {
  const out: FileTreeEntry[] = [];
  const walk = (e: FileTreeEntry) => (e.type === 'file' ? out.push(e) : e.children?.forEach(walk));
  if (tree) walk(tree);
  return out;
}

/** What the node did to each file it changed, by path, as its report says. */
export function changesOf(fc: FilesChanged | null | undefined): Map<string, FileChange> {
  return new Map<string, FileChange>([...(fc?.added ?? []).map((f) => [f.path, 'added'] as const), ...(fc?.modified ?? []).map((f) => [f.path, 'modified'] as const)]);
}

/** The file shown first: the first the node modified, else the first it added, else the first. */
export function firstFile(files: FileTreeEntry[], changes: Map<string, FileChange>): string | null {
  const find = (c: FileChange) => files.find((f) => changes.get(f.path) === c);
  return (find('modified') ?? find('added') ?? files[0])?.path ?? null;
}
