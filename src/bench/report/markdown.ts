import type { Block, ReportDocument } from './document.ts';
import { figureFile } from './figure-files.ts';

/**
 * Markdown text from the data: HTML's special characters as entities (a renderer passes raw HTML
 * through) and Markdown's punctuation backslashed, so no leaf or log can add markup, links or images.
 */
export function mdText(s: string): string {
  return s
    .replace(/[\u0000-\u001F\u007F]+/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`*_[\]{}|~^$]/g, (c) => `\\${c}`);
}

/** mdText for text that starts a line, where it could also open a list, a heading or a rule. */
function mdLine(s: string): string {
  return mdText(s)
    .replace(/^(\s*)([-+#])/, '$1\\$2')
    .replace(/^(\s*\d{1,9})([.)])/, '$1\\$2');
}

/** A fenced code block whose fence is longer than any run of backticks inside it, so the text cannot close it. */
function fenced(lines: string[]): string {
  const longest = Math.max(0, ...lines.map((l) => Math.max(0, ...(l.match(/`+/g) ?? []).map((m) => m.length))));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}text\n${lines.join('\n')}\n${fence}`;
}

function block(b: Block): string {
  switch (b.kind) {
    case 'kv':
      return b.rows.map(([k, v]) => `- **${mdText(k)}**: ${mdText(v)}`).join('\n');
    case 'table':
      return [`| ${b.head.map(mdText).join(' | ')} |`, `|${b.head.map(() => ' --- ').join('|')}|`, ...b.rows.map((r) => `| ${r.map(mdText).join(' | ')} |`)].join('\n');
    case 'figure':
      return `![${mdText(b.caption)}](${figureFile(b.name, 'svg')})`;
    case 'code':
      return `${mdLine(b.caption)}\n\n${fenced(b.lines)}`;
    case 'para':
      return mdLine(b.text);
    case 'list':
      return `${mdLine(b.caption)}:\n\n${b.items.map((i) => `- ${mdLine(i)}`).join('\n')}`;
    case 'subheading':
      return `### ${mdText(b.text)}`;
  }
}

export function renderMarkdown(doc: ReportDocument): string {
  return `# ${mdText(doc.title)}\n\n${doc.sections.map((s) => `## ${mdText(s.heading)}\n\n${s.blocks.map(block).join('\n\n')}`).join('\n\n')}\n`;
}
