import { statSync } from 'node:fs';
import { join } from 'node:path';
import { readdirOrNull } from '../paths.ts';
import type { NodeRecord, TreeFile } from '../../schema/checkpoint.ts';
import { readCheckpointText } from './records.ts';
import { readOutline } from './tree-outline.ts';
import { memoByFile } from '../file-memo.ts';

export type TreeRead = {
  /** null when no tree file could be read at all */
  tree: TreeFile | null;
  /** the file the nodes came from */
  file: string | null;
  /** what was wrong, one line each, naming the file */
  problems: string[];
};

/**
 * Read a checkpoint's node tree. Layouts, first usable wins: tree.json, nodes_tree.json, then the
 * legacy node_* /tree.json. A damaged tree.json is reported, and what can still be read of it is
 * kept: the complete node records before the point of damage, or nodes_tree.json when that has more.
 */
export function readTree(dir: string): TreeRead {
  return readTreeWith(dir, readTreeFile);
}

/**
 * What a summary and the node tree show of a checkpoint's tree, read like readTree (same layouts,
 * same problems) but keeping of each node only OUTLINE's fields: the others, trace logs and
 * artifacts above all, make up nearly all of a large tree.json.
 */
export function readTreeOutline(dir: string): TreeRead {
  return readTreeWith(dir, readTreeFileOutline);
}

type FileReader = (file: string, problems: string[]) => FileRead;

function readTreeWith(dir: string, readFile: FileReader): TreeRead {
  const problems: string[] = [];
  const primary = readFile(join(dir, 'tree.json'), problems);
  if (primary.tree && !primary.partial) return { tree: primary.tree, file: primary.file, problems };
  const secondary = readFile(join(dir, 'nodes_tree.json'), problems);
  const best = [primary, secondary].filter((r) => r.tree).sort((a, b) => Number(a.partial) - Number(b.partial) || (b.tree?.nodes.length ?? 0) - (a.tree?.nodes.length ?? 0))[0];
  if (best?.tree) return { tree: best.tree, file: best.file, problems };
  const legacy = legacyTreeFile(dir);
  if (legacy) {
    const r = readFile(legacy, problems);
    if (r.tree) return { tree: r.tree, file: r.file, problems };
  }
  return { tree: null, file: null, problems };
}

type FileRead = { tree: TreeFile | null; file: string; partial: boolean };

function readTreeFile(file: string, problems: string[]): FileRead {
  const none: FileRead = { tree: null, file, partial: false };
  const text = readCheckpointText(file, problems);
  if (text === null) return none;
  if (text.trim() === '') {
    // the reference implementation leaves an empty nodes_tree.json behind and ignores it
    if (!file.endsWith('nodes_tree.json')) problems.push(`${file}: is empty`);
    return none;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    const nodes = salvageNodes(text);
    const kept = nodes.length > 0 ? `; showing the ${nodes.length} complete node record(s) before the damage` : '';
    problems.push(`${file}: is not valid JSON (${(err as Error).message})${kept}`);
    return nodes.length > 0 ? { tree: { nodes }, file, partial: true } : none;
  }
  return treeOf(parsed, file, problems);
}

/**
 * The outline of the few tree files read last, kept while each file is unchanged: the dashboard
 * reads a large tree's outline on every visit to its page and every poll of a running search.
 */
const outlineOf = memoByFile(readOutline, 8);

/**
 * readTreeFile keeping the outline only (readOutline): a file that would not parse is read by
 * readTreeFile, for its messages and what it salvages; so is what is not a regular file.
 */
function readTreeFileOutline(file: string, problems: string[]): FileRead {
  let outline: unknown;
  try {
    if (!statSync(file).isFile()) return readTreeFile(file, problems);
    outline = outlineOf(file);
  } catch {
    return readTreeFile(file, problems);
  }
  return treeOf(outline, file, problems);
}

function treeOf(parsed: unknown, file: string, problems: string[]): FileRead {
  const none: FileRead = { tree: null, file, partial: false };
  if (parsed === null || typeof parsed !== 'object' || !Array.isArray((parsed as { nodes?: unknown }).nodes)) {
    problems.push(`${file}: has no "nodes" list`);
    return none;
  }
  const tree = parsed as TreeFile;
  const valid = tree.nodes.filter((n): n is NodeRecord => n !== null && typeof n === 'object' && typeof n.id === 'string' && n.id !== '');
  if (valid.length < tree.nodes.length) problems.push(`${file}: ${tree.nodes.length - valid.length} node record(s) without an id were skipped`);
  return { tree: { ...tree, nodes: valid }, file, partial: false };
}

function legacyTreeFile(dir: string): string | null {
  for (const name of (readdirOrNull(dir) ?? []).filter((n) => n.startsWith('node_')).sort()) {
    const f = join(dir, name, 'tree.json');
    try {
      if (statSync(f).size > 2) return f;
    } catch {
      // not a legacy node directory
    }
  }
  return null;
}

/**
 * The complete node objects of a truncated or corrupted tree file: one scan finds the top-level
 * "nodes" array (the `[` after that key in the outermost object) and parses each element of it
 * that is closed before the damage.
 */
export function salvageNodes(text: string): NodeRecord[] {
  const out: NodeRecord[] = [];
  let depth = 0;
  let inString = false;
  let stringStart = -1;
  let lastKey = '';
  /** the depth of the array's elements, once the array is found */
  let list: number | null = null;
  let elementStart = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') {
        inString = false;
        lastKey = text.slice(stringStart + 1, i);
      }
      continue;
    }
    if (c === '"') {
      inString = true;
      stringStart = i;
    } else if (c === '{' || c === '[') {
      if (list === null && c === '[' && depth === 1 && lastKey === 'nodes') list = depth + 1;
      else if (depth === list) elementStart = i;
      depth++;
    } else if (c === '}' || c === ']') {
      if (depth === list) break; // end of the nodes array
      depth--;
      if (depth === list && elementStart >= 0) {
        try {
          const node = JSON.parse(text.slice(elementStart, i + 1)) as NodeRecord;
          if (node && typeof node.id === 'string') out.push(node);
        } catch {
          return out;
        }
        elementStart = -1;
      }
    } else if (c === ',') lastKey = '';
  }
  return out;
}
