import { Code } from '../../../components/Code.tsx';
import { ErrorMessage, Loading } from '../../../components/states.tsx';
import { useApi } from '../../../use-api.ts';
import type { FileContent } from '../types.ts';
import { fileApi, fileHref } from '../urls.ts';

/** The LaTeX source, read only here; editing is in the Files section. */
export function TexSource({ id, path }: { id: string; path: string }) {
  const file = useApi<FileContent>(fileApi(id, path));
  return (
    <>
      <p>
        <a href={fileHref(id, path)}>Edit {path} in Files</a>
      </p>
      {file.error ? (
        <ErrorMessage message={file.error} retry={file.reload} />
      ) : !file.data ? (
        <Loading what={path} />
      ) : (
        <Code fileName={path} text={file.data.content} label={`LaTeX source ${path}`} />
      )}
    </>
  );
}
