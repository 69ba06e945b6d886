import { type OpenAIChatRequest, textOfRoles } from './scripted-request.ts';

/**
 * The scripted researcher as the reproduction judge (prompt grading/judge_leaf) for the demo's
 * Shell-sort paper. A leaf passes only on what the submission shows: Code Development leaves on a
 * program that counts comparisons (and, for the leaf's subject, implements insertion sort, gaps
 * or the sorted check), Code Execution leaves on a finished run whose log prints comparisons (and sortedness, and a run of
 * every setting the leaf names), and
 * Result Analysis leaves on every number they quote appearing in the log (or, for "times fewer",
 * the ratio of two of its counts). So an empty or boilerplate submission fails every leaf.
 */
export function judgeLeafReply(body: OpenAIChatRequest): string {
  const text = textOfRoles(body, ['system']);
  // a README's own headings may sit inside a section: each ends at the heading that follows it in the template
  const section = (title: string, next: string) => {
    const start = text.indexOf(`## ${title}\n`);
    const end = text.lastIndexOf(`\n## ${next}\n`);
    return start < 0 || end < start ? '' : text.slice(start + title.length + 4, end);
  };
  const head = section('The requirement', 'The paper');
  const leafId = /^Leaf: (.*)$/m.exec(head)?.[1] ?? '';
  const category = (/^Category: (.*)$/m.exec(head)?.[1] ?? '').toLowerCase();
  const requirement = head.split('\n').slice(2).join('\n');
  const files = section("The submission's files", 'reproduce.log');
  const log = section('reproduce.log', 'Answer');
  const verdict = category === 'code development' ? codeVerdict(requirement, files) : category === 'code execution' ? runVerdict(requirement, log) : resultVerdict(requirement, log);
  return JSON.stringify({ leaf_id: leafId, ...verdict });
}

type Verdict = { score: 0 | 1; explanation: string; evidence: string[] };

/** The source files (not the README, not reproduce.sh) whose text counts comparisons. */
function programs(files: string): { path: string; text: string }[] {
  return [...files.matchAll(/### (\S+)\n```\n([\s\S]*?)\n```/g)]
    .map((m) => ({ path: m[1] ?? '', text: m[2] ?? '' }))
    .filter((f) => !/^readme|reproduce\.sh$/i.test(f.path) && /comparisons\s*(\+\+|\+=)/.test(f.text));
}

function codeVerdict(requirement: string, files: string): Verdict {
  const found = programs(files);
  const needs: [RegExp, RegExp][] = [
    [/insertion/i, /insertion/i],
    [/\bgaps?\b|ratio/i, /gap/i],
    [/sorted/i, /sorted/i],
  ];
  const fits = found.filter((f) => needs.every(([asks, shows]) => !asks.test(requirement) || shows.test(f.text)));
  if (fits.length === 0) return { score: 0, explanation: found.length ? 'the program does not implement what the requirement asks' : 'no program in the submission counts comparisons', evidence: [] };
  return { score: 1, explanation: 'the program implements it and counts comparisons', evidence: fits.map((f) => f.path) };
}

const COUNT_LINE = /^.*\bcomparisons\b.*$/gim;

function runVerdict(requirement: string, log: string): Verdict {
  if (/the run was stopped at its time limit/.test(log)) return { score: 0, explanation: 'the run was stopped before reproduce.sh finished', evidence: [] };
  const lines = (log.match(COUNT_LINE) ?? []).filter((l) => /\d/.test(l));
  if (lines.length === 0) return { score: 0, explanation: 'the log prints no comparisons', evidence: [] };
  if (/sorted/i.test(requirement) && !/"sorted":\s*1|\bsorted\b/i.test(log)) return { score: 0, explanation: 'the log does not show the outputs sorted', evidence: [] };
  // a configuration the requirement names by its setting ("every gap ratio the paper tried (2.4, 2.25, 2)") must have run
  const settings = (requirement.match(/\d+(?:\.\d+)?/g) ?? []).filter((n) => !new RegExp(`(?<![\\d.])${n.replace('.', '\\.')}(?![\\d.])`).test(log));
  if (settings.length) return { score: 0, explanation: `the log shows no run with ${settings.join(', ')}`, evidence: [] };
  return { score: 1, explanation: 'the log prints the comparisons of the runs', evidence: lines.slice(0, 3) };
}

function resultVerdict(requirement: string, log: string): Verdict {
  const counts = [...log.matchAll(/(\d+) comparisons/g)].map((m) => Number(m[1]));
  if (counts.length === 0) return { score: 0, explanation: 'the log prints no results', evidence: [] };
  const numbers = (requirement.match(/\d[\d,.]*\d|\d/g) ?? []).map((n) => n.replace(/,/g, ''));
  const ratio = /times fewer/i.test(requirement) ? (Math.max(...counts) / Math.min(...counts)).toFixed(1) : null;
  const missing = numbers.filter((n) => !log.includes(n) && n !== ratio);
  if (missing.length) return { score: 0, explanation: `the log does not show ${missing.join(', ')}`, evidence: [] };
  return { score: 1, explanation: 'the log shows the numbers the requirement quotes', evidence: (log.match(COUNT_LINE) ?? []).slice(0, 3) };
}
