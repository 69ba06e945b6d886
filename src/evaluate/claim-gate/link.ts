import { basename, join } from 'node:path';
import { oneLine } from '../../core/errors.ts';
import { isMapping, stringList, unique } from '../../core/values.ts';
import { formatClaimValue, listClaims, numberValue, settingNumbers, unanchoredNumbers } from '../../paper/claims.ts';
import { type PaperSection, paperSections, type SectionKind, sectionAt } from '../../paper/paper-sections.ts';
import { maskComments, proseView } from '../../paper/tex-text.ts';
import type { ScienceData, ScienceValue } from '../../schema/science-data.ts';
import { readScienceData, SCIENCE_DATA_FILE } from '../../science/build.ts';
import { identifiers, parseExpression } from '../expression.ts';
import { CONTRACT_FILE, readMetricContract } from '../metric-contract.ts';
import { toKeyword } from '../metric-keyword.ts';
import { extractClaims, type NumericClaim } from './claims.ts';
import { type NodeArtifacts, type RunNodes, readRunNodes } from './nodes.ts';
import type { GatePolicy, Tolerance } from './policy.ts';
import { decimalsOf, matches, printedAs, roundsTo } from './tolerance.ts';

/** How the policy checks the numbers of a section: strict, warn, or not at all. Sections it does not list are checked as warn. */
export type SectionClass = 'strict' | 'warn' | 'excluded';
export type TargetSections = GatePolicy['numeric_coverage']['target_sections'];

/** Where a number was found to come from. */
export type NumberSource = { source: 'science_data'; key: string; value: number; node_id: string | null } | { source: 'node'; node_id: string; metric: string; value: number };

/** What an anchor's node left: the problem the gate reports, or ok. */
export type NodeCheck = 'ok' | 'artifact_missing' | 'node_not_executed' | 'result_unresolved' | 'value_mismatch';

export type AnchorLink = {
  key: string;
  /** the value as printed; null for a request `\svcclaim{key}` not yet filled */
  printed: string | null;
  printed_value: number | null;
  line: number;
  section: SectionKind;
  class: SectionClass;
  /** resolved: the key is in science data and the print agrees with it */
  status: 'resolved' | 'unresolved' | 'drift' | 'unfilled';
  science: (ScienceValue & { printed_as: string }) | null;
  /** what the metric contract says of the anchor's metric: key, formula operand, required measurement, a claim's evidence */
  contract: string[];
  /** the node the value was measured on (details under nodes), and what it reported of the metric */
  node_id: string | null;
  node_value: number | null;
  node_check: NodeCheck | null;
};

export type NumberLink = {
  /** as written */
  text: string;
  value: number;
  percent: boolean;
  line: number;
  offset: number;
  section: SectionKind;
  class: SectionClass;
  context: string;
  /**
   * the metric the prose gives the number for ("comparisons of 50"), null when it names none. A
   * number given for a metric is matched only against that metric's values: science-data values of
   * that metric and node measurements of that key.
   */
  metric: string | null;
  /** mismatch: given for a metric, it matches none of that metric's values (whatever other values it equals) */
  status: 'matched' | 'setting' | 'uncovered' | 'mismatch';
  /** the closest few science-data values and node measurements it matches, science data first among equals */
  matches: NumberSource[];
};

export type NodeLink = Omit<NodeArtifacts, 'measurements' | 'trials' | 'tree_metrics'>;

export type Coverage = { section: SectionKind; class: SectionClass; numbers: number; covered: number };

export type ClaimLinks = {
  schema_version: 1;
  phase: 'draft' | 'final';
  tex_path: string;
  tex_sha256: string;
  checkpoint_dir: string;
  science_data: { path: string; present: boolean };
  metric_contract: { path: string; present: boolean; key: string | null; formula: string | null };
  tolerance: Tolerance;
  sections: { section: SectionKind; heading: string; line: number; class: SectionClass }[];
  anchors: AnchorLink[];
  numbers: NumberLink[];
  nodes: Record<string, NodeLink>;
  coverage: Coverage[];
  summary: { anchors: number; resolved_anchors: number; unresolved_anchors: number; drifted_anchors: number; unfilled_anchors: number; numbers: number; matched: number; settings: number; uncovered: number; mismatched: number };
  /** files that could not be read, one line each */
  problems: string[];
};

export type LinkInput = {
  checkpointDir: string;
  texPath: string;
  /** the paper's source, as read from texPath, and the SHA-256 of the file's bytes */
  tex: string;
  texSha256: string;
  phase: 'draft' | 'final';
  tolerance: Tolerance;
  targetSections: TargetSections;
  /** the run's nodes, when the caller has read them already */
  run?: RunNodes;
  /** metric_contract.json, when the caller has read it already */
  contract?: MetricContract | null;
};

type MetricContract = ReturnType<typeof readMetricContract>;

/** How many sources a number's link names: enough to follow it, not every equal value of a sweep. */
const MAX_MATCHES = 5;

/**
 * Every claim anchor and every number of a paper mapped to where it comes from: an anchor to its
 * science_data.json value, the metric contract's use of its metric and the node it was measured
 * on (work directory, results.json and its SHA-256, whether tree.json says it ran); a number
 * without an anchor to the science-data values and node measurements it matches within the
 * tolerance, else to the configurations' settings, else uncovered. Each stands in a section of
 * the paper, whose class the policy's target_sections give. Deterministic: the same files give
 * the same links. A malformed metric contract is an error; missing or unreadable science data
 * leaves every anchor unresolved and says so in problems.
 */
export function linkPaperClaims(input: LinkInput): ClaimLinks {
  return linkPaper(input).links;
}

/** The links, with the metric claims of the prose they were made with and the science data they read. */
export function linkPaper(input: LinkInput): { links: ClaimLinks; claims: NumericClaim[]; science: ScienceData | null } {
  const { tex, tolerance } = input;
  const problems: string[] = [];
  const contract = input.contract === undefined ? readMetricContract(input.checkpointDir) : input.contract;
  const claimAnchors = listClaims(tex);
  const science = readScience(input.checkpointDir, claimAnchors.length > 0 ? problems : []);
  const run = input.run ?? readRunNodes(input.checkpointDir);
  problems.push(...run.problems);
  const sections = paperSections(tex);
  const classOf = sectionClassifier(input.targetSections);
  const place = (offset: number): { section: SectionKind; class: SectionClass } => {
    const kind = sectionAt(sections, offset)?.kind ?? 'front_matter';
    return { section: kind, class: classOf(kind) };
  };
  const roles = contractRoles(contract);
  const usedNodes = new Set<string>();

  const anchors: AnchorLink[] = claimAnchors.map((a) => {
    const entry = science && Object.hasOwn(science.values, a.key) ? science.values[a.key] : undefined;
    const printedValue = a.printed === null ? null : printedNumber(a.printed);
    const expected = entry ? formatClaimValue(a.key, entry.value) : null;
    let status: AnchorLink['status'] = 'resolved';
    if (!entry) status = 'unresolved';
    else if (a.printed === null) status = 'unfilled';
    else if (a.printed !== expected && !(printedValue !== null && agrees(a.printed, printedValue, entry.value, tolerance))) status = 'drift';
    const node = entry?.node_id ? run.nodes.get(entry.node_id) : undefined;
    if (entry?.node_id) usedNodes.add(entry.node_id);
    const nodeValue = node && entry ? measuredValue(node, entry.metric) : null;
    return {
      key: a.key,
      printed: a.printed,
      printed_value: printedValue,
      line: a.line,
      ...place(a.start),
      status,
      science: entry && expected !== null ? { ...entry, printed_as: expected } : null,
      contract: entry ? (roles.get(toKeyword(entry.metric)) ?? []) : [],
      node_id: entry?.node_id ?? null,
      node_value: nodeValue,
      node_check: entry?.node_id ? nodeCheck(node, entry, nodeValue, tolerance) : null,
    };
  });

  const settings = science ? settingNumbers(science) : new Set<number>();
  const references = referenceValues(science, run);
  const metricOf = (r: NumberSource) => toKeyword(r.source === 'node' ? r.metric : (science?.values[r.key]?.metric ?? ''));
  const scienceMetrics = unique(Object.values(science?.values ?? {}).map((v) => toKeyword(v.metric))).filter(Boolean);
  const claims = extractClaims(claimProse(tex), claimKeys(run, contract), basename(input.texPath), scienceMetrics);
  const claimAt = new Map(claims.map((c) => [c.at, c]));
  const src = maskComments(tex);
  const numbers: NumberLink[] = unanchoredNumbers(tex).map((n) => {
    const value = numberValue(n.number);
    const percent = /^\s*(?:\\%|percent\b)/.test(src.slice(n.offset + n.number.length, n.offset + n.number.length + 12));
    const candidates = percent ? [value, value / 100] : [value];
    const distance = (r: NumberSource) => Math.min(...candidates.map((c) => Math.abs(c - r.value) / Math.max(Math.abs(r.value), 1e-12)));
    const decimals = decimalsOf(n.number);
    const metric = claimAt.get(n.offset)?.key ?? null;
    const found = references
      .filter((r) => metric === null || metricOf(r) === metric)
      .filter((r) => candidates.some((c) => matches(c, r.value, tolerance)) || roundsTo(decimals, value, r.value) || (percent && roundsTo(decimals, value, r.value * 100)))
      .map((r) => ({ r, d: distance(r) }))
      .sort((a, b) => a.d - b.d)
      .slice(0, MAX_MATCHES)
      .map(({ r }) => r);
    for (const f of found) if (f.node_id) usedNodes.add(f.node_id);
    const status: NumberLink['status'] = found.length > 0 ? 'matched' : settings.has(value) ? 'setting' : metric === null ? 'uncovered' : 'mismatch';
    return { text: n.number, value, percent, line: n.line, offset: n.offset, ...place(n.offset), context: n.context, metric, status, matches: found };
  });

  const nodes: Record<string, NodeLink> = {};
  for (const id of [...usedNodes].sort()) {
    const n = run.nodes.get(id);
    if (n) {
      const { measurements: _m, trials: _t, tree_metrics: _tm, ...link } = n;
      nodes[id] = link;
    }
  }
  const links: ClaimLinks = {
    schema_version: 1,
    phase: input.phase,
    tex_path: input.texPath,
    tex_sha256: input.texSha256,
    checkpoint_dir: input.checkpointDir,
    science_data: { path: join(input.checkpointDir, SCIENCE_DATA_FILE), present: science !== null },
    metric_contract: { path: join(input.checkpointDir, CONTRACT_FILE), present: contract !== null, key: typeof contract?.key === 'string' ? contract.key : null, formula: typeof contract?.formula === 'string' ? contract.formula : null },
    tolerance,
    sections: sections.map((s: PaperSection) => ({ section: s.kind, heading: s.heading, line: s.line, class: classOf(s.kind) })),
    anchors,
    numbers,
    nodes,
    coverage: coverage(anchors, numbers),
    summary: {
      anchors: anchors.length,
      resolved_anchors: anchors.filter((a) => a.status === 'resolved').length,
      unresolved_anchors: anchors.filter((a) => a.status === 'unresolved').length,
      drifted_anchors: anchors.filter((a) => a.status === 'drift').length,
      unfilled_anchors: anchors.filter((a) => a.status === 'unfilled').length,
      numbers: numbers.length,
      matched: numbers.filter((n) => n.status === 'matched').length,
      settings: numbers.filter((n) => n.status === 'setting').length,
      uncovered: numbers.filter((n) => n.status === 'uncovered').length,
      mismatched: numbers.filter((n) => n.status === 'mismatch').length,
    },
    problems,
  };
  const offsets = new Set(numbers.map((n) => n.offset));
  return { links, claims: claims.filter((c) => offsets.has(c.at)), science };
}

/** Whether a number counts as covered: matched to the data or a setting. */
export function isCovered(n: Pick<NumberLink, 'status'>): boolean {
  return n.status === 'matched' || n.status === 'setting';
}

/**
 * The metric keys a text's numbers are read for: every measurement a node reported (results.json,
 * tree.json), the contract's key, its required measurements and its claims' evidence.
 */
export function claimKeys(run: RunNodes, contract: MetricContract): string[] {
  const names: string[] = [];
  for (const n of run.nodes.values()) names.push(...Object.keys(n.tree_metrics), ...Object.keys(n.trials), ...Object.keys(n.measurements));
  const contractClaims = (Array.isArray(contract?.claims) ? contract.claims : []).filter(isMapping);
  names.push(String(contract?.key ?? ''), String(contract?.metric_keyword ?? ''), ...stringList(contract?.required_measured), ...contractClaims.flatMap((c) => stringList(c.required_evidence)));
  return unique(names.map(toKeyword).filter(Boolean));
}

/**
 * The policy's class of a section kind; `results` is also what a list calls the experiments.
 * Kinds no list names (the method, the front matter, a code availability statement) are warn:
 * a number there is reported, never left unread.
 */
export function sectionClassifier(target: TargetSections): (kind: SectionKind) => SectionClass {
  const named = (s: string) => {
    const k = toKeyword(s);
    return k === 'experiment' || k === 'experiments' ? 'results' : k;
  };
  const has = (list: string[], kind: string) => list.some((s) => named(s) === kind);
  return (kind) => (has(target.excluded, kind) ? 'excluded' : has(target.strict, kind) ? 'strict' : 'warn');
}

/** science_data.json, or null with the reason among the problems. */
function readScience(checkpointDir: string, problems: string[]): ScienceData | null {
  try {
    const data = readScienceData(checkpointDir);
    if (!data) problems.push(`no ${SCIENCE_DATA_FILE} in ${checkpointDir}: no anchor can be resolved; write it with the transform_data stage (nodes_to_science_data)`);
    return data;
  } catch (err) {
    problems.push(oneLine(err));
    return null;
  }
}

/** What the contract does with each metric, by keyword. */
function contractRoles(contract: Record<string, unknown> | null): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const add = (name: string, role: string) => {
    const k = toKeyword(name);
    if (k) out.set(k, unique([...(out.get(k) ?? []), role]));
  };
  if (!contract) return out;
  if (typeof contract.key === 'string') add(contract.key, 'key');
  if (typeof contract.formula === 'string') for (const name of operandsOf(contract.formula)) add(name, 'formula');
  for (const r of stringList(contract.required_measured)) add(r, 'required_measured');
  (Array.isArray(contract.claims) ? contract.claims : []).forEach((c, i) => {
    if (isMapping(c)) for (const r of stringList(c.required_evidence)) add(r, `claims[${i}]`);
  });
  return out;
}

/** The names a formula reads; none when it does not parse (the gate reports that). */
function operandsOf(formula: string): string[] {
  try {
    return identifiers(parseExpression(formula));
  } catch {
    return [];
  }
}

/** Every number a paper may quote: science-data values first (they are what anchors name), then each node's measurements. */
function referenceValues(science: ScienceData | null, run: RunNodes): NumberSource[] {
  const out: NumberSource[] = [];
  for (const [key, v] of Object.entries(science?.values ?? {})) out.push({ source: 'science_data', key, value: v.value, node_id: v.node_id });
  for (const n of run.nodes.values()) {
    const seen = new Set<string>();
    const add = (metric: string, value: number) => {
      const id = `${metric}\u0000${value}`;
      if (seen.has(id)) return;
      seen.add(id);
      out.push({ source: 'node', node_id: n.node_id, metric, value });
    };
    for (const [metric, value] of Object.entries(n.measurements)) add(metric, value);
    for (const [metric, trials] of Object.entries(n.trials)) for (const v of trials) add(metric, v);
    for (const [metric, value] of Object.entries(n.tree_metrics)) add(metric, value);
  }
  return out;
}

/** A node's measurement of a metric: results.json (the mean of a list), else tree.json; by name or keyword. */
function measuredValue(node: NodeArtifacts, metric: string): number | null {
  const k = toKeyword(metric);
  for (const source of [node.measurements, node.tree_metrics]) {
    if (Object.hasOwn(source, metric)) return source[metric] as number;
    const found = Object.entries(source).find(([name]) => toKeyword(name) === k);
    if (found) return found[1];
  }
  return null;
}

function nodeCheck(node: NodeArtifacts | undefined, entry: ScienceValue, measured: number | null, tol: Tolerance): NodeCheck {
  if (!node || !node.work_dir_exists || node.results_path === null) return 'artifact_missing';
  if (node.ran === false) return 'node_not_executed';
  if (measured === null) return 'result_unresolved';
  return matches(entry.value, measured, tol) ? 'ok' : 'value_mismatch';
}

/** Whether an anchor's print stands for the value: within tolerance, or the value rounded as printed. */
function agrees(printed: string, shown: number, value: number, tol: Tolerance): boolean {
  if (matches(shown, value, tol)) return true;
  const plain = printed.replace(/\\ensuremath\{-\}/g, '-').replace(/\\%/g, '').trim();
  return printedAs(plain, value);
}

/**
 * The number an anchor prints, as formatClaimValue writes them (`30{,}850`, `12.3\%`,
 * `\ensuremath{-}4.5`, `1.23\times10^{-4}`); null when the print is not a number.
 */
function printedNumber(printed: string): number | null {
  const s = printed
    .replace(/\\ensuremath\{-\}|\\ensuremath\{\s*-\s*\}/g, '-')
    .replace(/\\%|%/g, '')
    .replace(/[$\s~]/g, '')
    .replace(/\{,\}|,/g, '');
  const sci = /^(-?\d+(?:\.\d+)?)\\times10\^\{?(-?\d+)\}?$/.exec(s);
  if (sci) return Number(sci[1]) * 10 ** Number(sci[2]);
  const n = /^-?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?$/.test(s) ? Number(s) : Number.NaN;
  return Number.isFinite(n) ? n : null;
}

function coverage(anchors: AnchorLink[], numbers: NumberLink[]): Coverage[] {
  const by = new Map<SectionKind, Coverage>();
  const count = (section: SectionKind, cls: SectionClass, covered: boolean) => {
    const c = by.get(section) ?? { section, class: cls, numbers: 0, covered: 0 };
    c.numbers++;
    if (covered) c.covered++;
    by.set(section, c);
  };
  for (const a of anchors) count(a.section, a.class, a.status === 'resolved');
  for (const n of numbers) count(n.section, n.class, isCovered(n));
  return [...by.values()];
}

/**
 * The paper's prose for reading numeric claims ("accuracy of 91.5%"), offsets kept: proseView,
 * with the percent signs LaTeX escapes put back, and a stop at each anchor so that a metric named
 * before an anchor does not take a number after it as its own.
 */
export function claimProse(tex: string): string {
  const out = proseView(tex).split('');
  const src = maskComments(tex);
  for (const m of src.matchAll(/(?<!\\)\\%/g)) if (out[m.index] !== '\n' && out[m.index] === ' ') out[m.index + 1] = '%';
  for (const a of listClaims(tex)) out[a.start] = ';';
  return out.join('');
}
