import { esc } from '../../chart/svg.ts';
import type { Block, ReportDocument } from './document.ts';
import type { Figure } from './figures.ts';

// One self-contained file: styles and figures inline, every text from the data escaped. The policy
// forbids scripts and outside fetches too, should anything ever slip through the escaping.
/** What a report page may load: its own inline styles and images, nothing else (no script, no request). */
export const REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";
const STYLE = `body{font-family:sans-serif;max-width:60em;margin:2em auto;padding:0 1em;line-height:1.4}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .5em;vertical-align:top;text-align:left}
th{background:#f4f4f4}dl{display:grid;grid-template-columns:max-content auto;gap:.1em 1em}dt{font-weight:bold}dd{margin:0;overflow-wrap:anywhere}
pre{background:#f7f7f7;padding:.5em;overflow-x:auto;font-size:.85em}figure{margin:1em 0}figure svg{max-width:100%;height:auto}`;

function block(b: Block, svgs: Map<string, string>): string {
  switch (b.kind) {
    case 'kv':
      return `<dl>${b.rows.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`).join('')}</dl>`;
    case 'table':
      return `<table><thead><tr>${b.head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>${b.rows.map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
    case 'figure':
      return `<figure id="figure-${b.name}">${svgs.get(b.name) ?? ''}<figcaption>${esc(b.caption)}</figcaption></figure>`;
    case 'code':
      return `<p>${esc(b.caption)}</p><pre>${b.lines.map(esc).join('\n')}</pre>`;
    case 'para':
      return `<p>${esc(b.text)}</p>`;
    case 'list':
      return `<p>${esc(b.caption)}:</p><ul>${b.items.map((i) => `<li>${esc(i)}</li>`).join('')}</ul>`;
    case 'subheading':
      return `<h3>${esc(b.text)}</h3>`;
  }
}

export function renderHtml(doc: ReportDocument, lang: string, figures: Figure[]): string {
  // the figures' own markup, without the XML declaration a standalone file has
  const svgs = new Map(figures.map((f) => [f.name, f.svg.replace(/^<\?xml[^>]*\?>\s*/, '').trim()]));
  const body = doc.sections.map((s) => `<section><h2>${esc(s.heading)}</h2>\n${s.blocks.map((b) => block(b, svgs)).join('\n')}</section>`).join('\n');
  return `<!DOCTYPE html>
<html lang="${esc(lang)}"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(doc.title)}</title><style>${STYLE}</style></head>
<body><h1>${esc(doc.title)}</h1>
${body}
</body></html>
`;
}
