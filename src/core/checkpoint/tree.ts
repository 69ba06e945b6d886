import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { edenGC } from 'bun:jsc';
import type { NodeRecord, TreeFile } from '../../schema/checkpoint.ts';
import { readCheckpointText } from './records.ts';

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

/** The fields of a tree file, and of each of its nodes, that a summary and the node tree show. */
const OUTLINE_FIELDS = ['run_id', 'experiment_goal', 'status'] as const;
const OUTLINE_NODE_FIELDS = ['id', 'parent_id', 'status', 'label', 'name', 'metrics'] as const;

/**
 * readTreeFile keeping OUTLINE's fields only, without ever holding the whole file: it is read a
 * window at a time, and each node record is parsed on its own and cut to its outline at once, so
 * what stays is the outline. Every value is parsed by JSON.parse, and the bytes between values
 * (brackets, colons, commas, white space) are checked here, so a file reads to the outline of its
 * parse as a whole, and one that would not parse is read by readTreeFile, for its messages and what
 * it salvages; so is what is not a regular file.
 */
function readTreeFileOutline(file: string, problems: string[]): FileRead {
  let outline: unknown;
  try {
    if (!statSync(file).isFile()) return readTreeFile(file, problems);
    const fd = openSync(file, 'r');
    try {
      outline = new OutlineReader(fd).document();
    } finally {
      closeSync(fd);
    }
  } catch {
    return readTreeFile(file, problems);
  }
  return treeOf(outline, file, problems);
}

function pick(from: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (k in from) out[k] = from[k];
  return out;
}

/** bytes read at a time */
const WINDOW = 1 << 16;
/** bytes kept before a value when the window moves on: enough to find the start of its line */
const CONTEXT = 1 << 10;
/** the largest value looked for by its layout; a larger one is scanned for its end */
const LAID_OUT_MAX = 1 << 20;
/**
 * Node bytes parsed between two collections of the young garbage they leave: a parsed record
 * takes several times its bytes, and the collector left to itself lets tens of megabytes of them
 * pile up before it runs.
 */
const COLLECT_EVERY = 1 << 16;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_LIST = 0x5b;
const CLOSE_LIST = 0x5d;

const isSpace = (b: number | undefined) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/** Thrown where the file is not a tree file this reader takes whole; readTreeFile then reads it. */
class NotOutlined extends Error {}
const NOT_FOUND = Symbol('not found');

/**
 * The one JSON value that bytes[from, to) are, as JSON.parse gives it for the text readFileSync
 * decodes (a value starts and ends with an ASCII byte, so its text is the same); NOT_FOUND if they
 * are not one.
 */
function parseJson(bytes: Buffer, from: number, to: number): unknown {
  try {
    return JSON.parse(bytes.toString('utf8', from, to));
  } catch {
    return NOT_FOUND;
  }
}

/**
 * The outline of a tree file read through a window of its bytes with a cursor in it. Bytes before
 * `mark` (but CONTEXT of them) may leave the window when it moves on; a value being read keeps its
 * first byte marked, so it is whole in the window when it ends (the window grows for a value larger
 * than itself).
 */
class OutlineReader {
  private buf = Buffer.allocUnsafe(WINDOW);
  /** the file offset of buf[0] */
  private base = 0;
  /** bytes of buf that hold the file */
  private len = 0;
  private i = 0;
  private mark = 0;
  private eof = false;

  constructor(private readonly fd: number) {}

  /** { run_id, experiment_goal, status, nodes } as far as the file has them. */
  document(): Record<string, unknown> {
    const top: Record<string, unknown> = {};
    let nodes: unknown[] | null = null;
    this.space();
    this.expect(OPEN_OBJECT);
    this.space();
    if (this.at() === CLOSE_OBJECT) this.i++;
    else {
      for (;;) {
        const key = this.value();
        if (typeof key !== 'string') throw new NotOutlined();
        this.space();
        this.expect(COLON);
        this.space();
        if (key === 'nodes') {
          // the last "nodes" counts, as in a parse of the whole; readTreeFile tells of one that is no list
          nodes = this.at() === OPEN_LIST ? this.nodes() : (this.value(), null);
        } else {
          const v = this.value();
          if ((OUTLINE_FIELDS as readonly string[]).includes(key)) top[key] = v;
        }
        this.space();
        const c = this.at();
        this.i++;
        if (c === CLOSE_OBJECT) break;
        if (c !== COMMA) throw new NotOutlined();
        this.space();
      }
    }
    this.space();
    if (this.at() !== -1 || nodes === null) throw new NotOutlined();
    return { ...pick(top, OUTLINE_FIELDS), nodes };
  }

  /** The elements of the list at the cursor, node records cut to their outline. */
  private nodes(): unknown[] {
    const out: unknown[] = [];
    this.i++;
    this.space();
    if (this.at() === CLOSE_LIST) {
      this.i++;
      return out;
    }
    let parsed = 0;
    for (;;) {
      out.push(this.outlined());
      // collected here, where no whole record is held any longer: garbage, all of it, and young
      parsed += this.i - this.mark;
      if (parsed >= COLLECT_EVERY) {
        edenGC();
        parsed = 0;
      }
      this.space();
      const c = this.at();
      this.i++;
      if (c === CLOSE_LIST) return out;
      if (c !== COMMA) throw new NotOutlined();
      this.space();
    }
  }

  /** The node record at the cursor cut to its outline; anything else in the list as it is. */
  private outlined(): unknown {
    const n = this.value();
    return n !== null && typeof n === 'object' && !Array.isArray(n) ? pick(n as Record<string, unknown>, OUTLINE_NODE_FIELDS) : n;
  }

  /** The JSON value at the cursor, parsed on its own; the cursor moves past it. */
  private value(): unknown {
    this.mark = this.i;
    const c = this.at();
    if (c === QUOTE) this.string();
    else if (c === OPEN_OBJECT || c === OPEN_LIST) {
      const v = this.laidOut(c === OPEN_OBJECT ? CLOSE_OBJECT : CLOSE_LIST);
      if (v !== NOT_FOUND) return v;
      this.container();
    } else {
      // a number, true, false or null: up to the next delimiter; JSON.parse says whether it is one
      for (;;) {
        if (this.i === this.len && !this.more()) break;
        const b = this.buf[this.i];
        if (b === COMMA || b === CLOSE_OBJECT || b === CLOSE_LIST || isSpace(b)) break;
        this.i++;
      }
    }
    const v = parseJson(this.buf, this.mark, this.i);
    if (v === NOT_FOUND) throw new NotOutlined();
    return v;
  }

  /**
   * The object or list at the cursor found by its layout and parsed, the cursor moved past it; or
   * NOT_FOUND. A tree file holds a node a line (as svc writes it) or is indented (as the reference
   * implementation writes it): the value then ends at the end of its line, or at the first line
   * indented as its own that starts with its closing bracket. Neither is trusted: the bytes up to
   * there are the value only if they parse as one value, which no shorter or longer run does.
   */
  private laidOut(closer: number): unknown {
    for (;;) {
      const start = this.mark;
      const buf = this.buf;
      const nl = buf.indexOf(0x0a, start);
      if (nl < 0 || nl >= this.len) {
        if (this.len - start < LAID_OUT_MAX && this.more()) continue;
        return NOT_FOUND;
      }
      let end = nl;
      while (end > start && isSpace(buf[end - 1])) end--;
      if (buf[end - 1] === COMMA) end--;
      if (buf[end - 1] === closer) return this.parsed(start, end);
      const lineStart = buf.lastIndexOf(0x0a, start) + 1;
      // the window starts inside the value's line
      if (lineStart === 0 && this.base > 0) return NOT_FOUND;
      let indent = lineStart;
      while (buf[indent] === 0x20) indent++;
      const closing = `\n${' '.repeat(indent - lineStart)}${String.fromCharCode(closer)}`;
      const at = buf.indexOf(closing, nl, 'latin1');
      if (at >= 0 && at + closing.length <= this.len) return this.parsed(start, at + closing.length);
      if (this.len - start < LAID_OUT_MAX && this.more()) continue;
      return NOT_FOUND;
    }
  }

  /** buf[from, to) parsed, the cursor moved past it; NOT_FOUND if it is no JSON value. */
  private parsed(from: number, to: number): unknown {
    const v = parseJson(this.buf, from, to);
    if (v !== NOT_FOUND) this.i = to;
    return v;
  }

  /** Moves past the object or list at the cursor: to its closing bracket, strings skipped whole. */
  private container(): void {
    let depth = 0;
    for (;;) {
      if (this.i === this.len && !this.more()) throw new NotOutlined();
      const b = this.buf[this.i];
      if (b === QUOTE) {
        this.string();
        continue;
      }
      this.i++;
      if (b === OPEN_OBJECT || b === OPEN_LIST) depth++;
      else if ((b === CLOSE_OBJECT || b === CLOSE_LIST) && --depth === 0) return;
    }
  }

  /** Moves past the string at the cursor, to the quote that no backslash escapes. */
  private string(): void {
    let from = this.i + 1;
    for (;;) {
      const q = this.buf.indexOf(QUOTE, from);
      if (q < 0 || q >= this.len) {
        const base = this.base;
        from = this.len;
        if (!this.more()) throw new NotOutlined();
        from -= this.base - base;
        continue;
      }
      let backslashes = 0;
      while (this.buf[q - 1 - backslashes] === BACKSLASH) backslashes++;
      from = q + 1;
      if (backslashes % 2 === 0) {
        this.i = from;
        return;
      }
    }
  }

  private space(): void {
    for (;;) {
      if (this.i === this.len) {
        this.mark = this.i;
        if (!this.more()) return;
      }
      if (!isSpace(this.buf[this.i])) return;
      this.i++;
    }
  }

  /** The byte at the cursor, -1 at the end of the file. */
  private at(): number {
    if (this.i === this.len) {
      this.mark = this.i;
      if (!this.more()) return -1;
    }
    return this.buf[this.i] as number;
  }

  private expect(b: number): void {
    if (this.at() !== b) throw new NotOutlined();
    this.i++;
  }

  /** Reads on, moving what is still needed to the window's start. False at the end of the file. */
  private more(): boolean {
    if (this.eof) return false;
    const drop = this.mark - CONTEXT;
    if (drop > 0) {
      this.buf.copyWithin(0, drop, this.len);
      this.len -= drop;
      this.base += drop;
      this.i -= drop;
      this.mark -= drop;
    }
    // a window still three quarters full holds one large value: twice the room for it
    if (this.len > this.buf.length - (this.buf.length >> 2)) {
      const bigger = Buffer.allocUnsafe(this.buf.length * 2);
      this.buf.copy(bigger, 0, 0, this.len);
      this.buf = bigger;
    }
    const n = readSync(this.fd, this.buf, this.len, this.buf.length - this.len, this.base + this.len);
    if (n === 0) {
      this.eof = true;
      return false;
    }
    this.len += n;
    return true;
  }
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
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return null;
  }
  for (const name of entries.filter((n) => n.startsWith('node_')).sort()) {
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
 * The complete node objects of a truncated or corrupted tree file: scans to the top-level
 * "nodes" array and parses each element that is closed before the damage.
 */
export function salvageNodes(text: string): NodeRecord[] {
  const start = findTopLevelArray(text, 'nodes');
  if (start < 0) return [];
  const out: NodeRecord[] = [];
  let depth = 0;
  let inString = false;
  let elementStart = -1;
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') {
      if (depth === 0) elementStart = i;
      depth++;
    } else if (c === '}' || c === ']') {
      if (depth === 0) break; // end of the nodes array
      depth--;
      if (depth === 0 && elementStart >= 0) {
        try {
          const node = JSON.parse(text.slice(elementStart, i + 1)) as NodeRecord;
          if (node && typeof node.id === 'string') out.push(node);
        } catch {
          return out;
        }
        elementStart = -1;
      }
    }
  }
  return out;
}

/** Index of the `[` that opens `"key": [` in the outermost object, or -1. */
function findTopLevelArray(text: string, key: string): number {
  let depth = 0;
  let inString = false;
  let stringStart = -1;
  let lastKey = '';
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
      if (c === '[' && depth === 1 && lastKey === key) return i;
      depth++;
    } else if (c === '}' || c === ']') depth--;
    else if (c === ',') lastKey = '';
  }
  return -1;
}
