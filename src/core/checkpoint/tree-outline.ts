import { closeSync, openSync, readSync } from 'node:fs';
import { edenGC } from 'bun:jsc';

/** The fields of a tree file, and of each of its nodes, that a summary and the node tree show. */
const OUTLINE_FIELDS = ['run_id', 'experiment_goal', 'status', 'search_state'] as const;
const OUTLINE_NODE_FIELDS = ['id', 'parent_id', 'status', 'label', 'name', 'metrics'] as const;

/**
 * The outline of a tree file (OUTLINE_FIELDS, and OUTLINE_NODE_FIELDS of each node), read without
 * ever holding the whole file: a window at a time, each node record parsed on its own and cut to
 * its outline at once. Every value is parsed by JSON.parse and the bytes between values (brackets,
 * colons, commas, white space) are checked here, so a file reads to the outline of its parse as a
 * whole; one that would not parse throws.
 */
export function readOutline(file: string): unknown {
  const fd = openSync(file, 'r');
  try {
    return new OutlineReader(fd).document();
  } finally {
    closeSync(fd);
  }
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
