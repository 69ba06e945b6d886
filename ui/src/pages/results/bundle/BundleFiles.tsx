import { fileSize } from '../../../format.ts';
import type { BundleFile } from './types.ts';

/** The files of the bundle with their sizes and hashes (the full hash on hover). */
export function BundleFiles({ files }: { files: BundleFile[] }) {
  if (files.length === 0) return <p className="state empty">publish.yaml keeps no file: the bundle is empty. Widen its include globs and curate again.</p>;
  return (
    <div className="bundle-files" tabIndex={0} role="region" aria-label="Files of the bundle">
      <table>
        <thead>
          <tr>
            <th scope="col">File</th>
            <th scope="col" className="num">
              Size
            </th>
            <th scope="col">SHA-256</th>
          </tr>
        </thead>
        <tbody>
          {files.map((f) => (
            <tr key={f.path}>
              <td className="path">{f.path}</td>
              <td className="num">{fileSize(f.size)}</td>
              <td>
                <code title={f.sha256}>{f.sha256.slice(0, 12)}…</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
