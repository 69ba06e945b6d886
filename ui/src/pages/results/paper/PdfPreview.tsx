import { rawFileUrl } from '../urls.ts';

/** The PDF in the browser's own viewer, and a link to open it on its own. */
export function PdfPreview({ id, path }: { id: string; path: string }) {
  const url = rawFileUrl(id, path);
  return (
    <>
      <iframe className="results-pdf" src={url} title={`Preview of ${path}`} />
      <p>
        <a href={url} target="_blank" rel="noreferrer">
          Open {path}
        </a>
      </p>
    </>
  );
}
