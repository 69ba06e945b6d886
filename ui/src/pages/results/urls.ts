import { checkpointApi, withToken } from '../../api.ts';
import { href } from '../../route.ts';

/** A file's JSON answer (text, or base64 for bytes that are not). */
export const fileApi = (id: string, path: string) => checkpointApi(id, `/file?path=${encodeURIComponent(path)}`);

/** A file's bytes as served, for what cannot send a header (an image, a frame, a download link). */
export const rawFileUrl = (id: string, path: string) => withToken(checkpointApi(id, `/file/raw?path=${encodeURIComponent(path)}`));

/** The page address of a file in the Files section (or of the section, for ''). */
export const fileHref = (id: string, path: string) => href('results', id, 'files', ...(path ? path.split('/') : []));

