import { Type as T } from '@sinclair/typebox';
import { defineTool } from '../../mcp/tool.ts';
import { COMPILE_TIMEOUT_MS, compilePaper } from '../../paper/compile.ts';
import { checkpointPath } from '../checkpoint-path.ts';

export const compilePaperTool = defineTool({
  name: 'compile_paper',
  description:
    'Compile a LaTeX paper to PDF: latexmk -pdf (pdfLaTeX, BibTeX when it has a bibliography) in tex_dir, non-interactive, stopped after 3 minutes. ' +
    'A LaTeX error is an error naming TeX\'s first "!" line and the source file and line (and, for a missing class or package, the Debian package to install). ' +
    'Returns {pdf_path, pages, warnings: [{kind: undefined_reference | undefined_citation | overfull_box | other, message, file, line}]}.',
  params: T.Object(
    {
      tex_dir: T.String({ description: "the paper's directory: absolute, or relative to the run checkpoint (SVC_CHECKPOINT_DIR)" }),
      main_file: T.String({ default: 'main.tex', description: 'the .tex with \\documentclass, relative to tex_dir' }),
    },
    { additionalProperties: false },
  ),
  timeoutS: COMPILE_TIMEOUT_MS / 1000 + 60,
  run: (args, ctx) => compilePaper(checkpointPath(args.tex_dir, 'tex_dir', ctx.env), args.main_file, ctx.env),
});
