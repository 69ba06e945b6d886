/**
 * Search queries made without a model: the keywords as given, then the experiment summary's most
 * telling words. Deterministic, so a run without a model (or a replay) searches the same.
 */

/** Words that say nothing about a research topic. */
const STOP = new Set(
  (
    'about above after again against also among another because been before being below between both cannot could does doing down during each either else every ' +
    'from further have having here however into itself just more most much must never only other ought over same should since some such than that their ' +
    'them then there these they this those through under until upon very were what when where which while whom whose will with within without would your ' +
    'using used uses use based approach approaches method methods result results paper study show shows shown propose proposed work works new novel ' +
    'experiment experiments experimental goal goals task tasks run runs node nodes best good better make makes made many several number numbers value values ' +
    'data first second third one two three four five given give gives find finds found across each per via well also include includes including like ' +
    'metric metrics measure measured measures lower higher less more time times see note notes section'
  ).split(' '),
);

/** Keywords as one list: split at commas, semicolons and line breaks (a template renders a list as text), each once. */
export function keywordList(keywords: string | readonly string[]): string[] {
  const parts = (typeof keywords === 'string' ? [keywords] : keywords).flatMap((k) => k.split(/[,;\n]+/));
  const cleaned = parts.map((raw) => raw.replace(/^[\s"'\-*•[\]]+|[\s"'\]]+$/g, '').replace(/\s+/g, ' ').slice(0, 200));
  return uniqueBy(cleaned, (k) => k.toLowerCase());
}

/** The summary's most frequent telling words (ties: first seen first), markup and numbers left out. */
export function salientTerms(text: string, max = 12): string[] {
  const plain = text
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/https?:\/\/\S+/g, ' ');
  const counts = new Map<string, number>();
  for (const w of plain.toLowerCase().match(/[\p{L}][\p{L}\p{N}-]*[\p{L}\p{N}]/gu) ?? []) {
    if (w.length < 4 || STOP.has(w)) continue;
    counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  return [...counts.entries()]
    .map(([w, n], i) => ({ w, n, i }))
    .sort((a, b) => b.n - a.n || a.i - b.i)
    .slice(0, max)
    .map((e) => e.w);
}

export type PlannedQuery = { query: string; origin: 'keywords' | 'summary' | 'derived' };

/**
 * Queries in the order they are tried: each keyword, the summary's top words together, then
 * derived ones (a keyword with a summary word it lacks, runs of summary words). Each query once.
 */
export function plannedQueries(summary: string, keywords: readonly string[]): { seeds: PlannedQuery[]; derived: PlannedQuery[] } {
  const terms = salientTerms(summary);
  const seeds: PlannedQuery[] = keywords.slice(0, 8).map((k) => ({ query: k, origin: 'keywords' }));
  if (terms.length > 0) seeds.push({ query: terms.slice(0, 4).join(' '), origin: 'summary' });
  const derived: PlannedQuery[] = [];
  for (const k of keywords.slice(0, 4)) {
    for (const t of terms.slice(0, 3)) if (!k.toLowerCase().includes(t)) derived.push({ query: `${k} ${t}`, origin: 'derived' });
  }
  for (let i = 1; i + 3 <= terms.length; i += 2) derived.push({ query: terms.slice(i, i + 3).join(' '), origin: 'derived' });
  const unique = (list: PlannedQuery[]) => uniqueBy(list, (q) => normalizeQuery(q.query));
  return { seeds: unique(seeds), derived: unique(derived) };
}

/** The items with a key, each key once: the first item with it is kept. */
function uniqueBy<T>(list: readonly T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return list.filter((item) => {
    const k = key(item);
    if (!k || seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** A query reduced to its words, so `Cache tiling` and `cache-tiling` count as one. */
export function normalizeQuery(q: string): string {
  return q
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
