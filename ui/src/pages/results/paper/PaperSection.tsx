import { useState } from 'react';
import { Empty } from '../../../components/states.tsx';
import type { FileList, ResultsSummary } from '../types.ts';
import { Compile } from './Compile.tsx';
import { Figures } from './Figures.tsx';
import { PdfPreview } from './PdfPreview.tsx';
import { TexSource } from './TexSource.tsx';

/** The drafts in the order the compile route looks for the paper, then the final paper. */
const PAPER_TEX = ['paper/full_paper.tex', 'full_paper.tex', 'paper/main.tex', 'final_paper.tex'];
const PAPER_PDF = ['final_paper.pdf', 'full_paper.pdf', 'paper/full_paper.pdf'];

type Props = { id: string; summary: ResultsSummary; files: FileList; changed: () => void };

/** The paper: its LaTeX source, a compile of it with TeX's error when it fails, the PDF and the figures. */
export function PaperSection({ id, summary, files, changed }: Props) {
  const texs = files.files.filter((f) => /\.tex$/i.test(f.path)).map((f) => f.path);
  const pdfs = files.files.filter((f) => f.type === 'pdf').map((f) => f.path);
  const images = files.files.filter((f) => f.type === 'image').map((f) => f.path);
  const inRun = (abs: string | null | undefined) => (abs?.startsWith(`${summary.path}/`) ? abs.slice(summary.path.length + 1) : null);
  const [tex, setTex] = useState(() => inRun(summary.paper?.tex_path) ?? PAPER_TEX.find((p) => texs.includes(p)) ?? texs[0] ?? null);
  const [pdf, setPdf] = useState(() => PAPER_PDF.find((p) => pdfs.includes(p)) ?? inRun(summary.paper?.pdf_path) ?? pdfs[0] ?? null);
  // a new compile of the same file: the frame loads it again
  const [build, setBuild] = useState(0);
  if (texs.length === 0 && pdfs.length === 0)
    return (
      <Empty title="No paper yet">
        <p>
          This run has no LaTeX draft and no PDF. The paper phase writes them: its <code>write_paper</code> stage writes <code>full_paper.tex</code>, and{' '}
          <code>finalize_paper</code> compiles <code>final_paper.pdf</code> once the review and the claim gate are done.
        </p>
      </Empty>
    );
  const compiled = (path: string) => {
    setPdf(path);
    setBuild((b) => b + 1);
    changed();
  };
  return (
    <div className="cards results-paper">
      <section className="card" aria-labelledby="results-tex-title">
        <h2 id="results-tex-title">LaTeX source</h2>
        {tex === null ? (
          <p>This run has a PDF but no LaTeX source to compile.</p>
        ) : (
          <>
            <Choice label="Source" value={tex} options={texs} onChange={setTex} />
            <Compile key={tex} id={id} tex={tex} compiled={compiled} />
            <TexSource id={id} path={tex} />
          </>
        )}
      </section>
      <section className="card" aria-labelledby="results-pdf-title">
        <h2 id="results-pdf-title">PDF</h2>
        {pdf === null ? (
          <p>No PDF yet: compile the source to make one.</p>
        ) : (
          <>
            <Choice label="PDF" value={pdf} options={pdfs.includes(pdf) ? pdfs : [pdf, ...pdfs]} onChange={setPdf} />
            {summary.paper?.title && <p className="meta">{summary.paper.title}{summary.paper.pages ? `, ${summary.paper.pages} pages` : ''}</p>}
            <PdfPreview key={`${pdf}#${build}`} id={id} path={pdf} />
          </>
        )}
      </section>
      <Figures id={id} paths={images} />
    </div>
  );
}

function Choice({ label, value, options, onChange }: { label: string; value: string; options: string[]; onChange: (v: string) => void }) {
  if (options.length < 2) return <p className="meta">{value}</p>;
  return (
    <div className="toolbar">
      <label>
        {label}
        {/* named by aria-label: a label around a select would read its options too */}
        <select aria-label={label} value={value} onChange={(e) => onChange(e.target.value)}>
          {options.map((o) => (
            <option key={o}>{o}</option>
          ))}
        </select>
      </label>
    </div>
  );
}
