import { Type as T } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { CORPUS_FILES, CORPUS_MANIFEST_TEXT } from './fewshot-corpus/embedded.ts';

const CorpusEntry = T.Object({
  rubric: T.String({ pattern: '^[A-Za-z0-9_-]+$' }),
  id: T.String({ pattern: '^[A-Za-z0-9_-]+$' }),
  files: T.Array(T.String({ pattern: '^[A-Za-z0-9_-]+\\.[a-z]+$' }), { minItems: 1 }),
});
const CorpusManifest = T.Object({ version: T.Literal(1), entries: T.Array(CorpusEntry) });

export type CorpusFile = { name: string; content: string };
export type CorpusEntry = { rubric: string; id: string; files: CorpusFile[] };

let entriesCache: CorpusEntry[] | undefined;
/**
 * The published corpus: the manifest's entries with the embedded content of each file. A
 * manifest naming a file that is not embedded, or a file not named `<id>.<ext>`, is a build defect.
 */
export function corpusEntries(): CorpusEntry[] {
  if (entriesCache) return entriesCache;
  const manifest: unknown = JSON.parse(CORPUS_MANIFEST_TEXT);
  if (!Value.Check(CorpusManifest, manifest)) throw new Error(`few-shot corpus manifest: ${Value.Errors(CorpusManifest, manifest).First()?.message}`);
  entriesCache = manifest.entries.map((e) => ({
    rubric: e.rubric,
    id: e.id,
    files: e.files.map((name) => {
      const content = CORPUS_FILES.get(`${e.rubric}/${name}`);
      if (content === undefined || !name.startsWith(`${e.id}.`)) throw new Error(`few-shot corpus manifest: ${e.rubric}/${name} is not an embedded file of example ${e.id}`);
      return { name, content };
    }),
  }));
  return entriesCache;
}
