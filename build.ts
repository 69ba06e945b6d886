// Builds dist/svc: one executable with the workflow and every asset embedded.
import { rmSync } from 'node:fs';
import { bundleUi, checkManifest, compileSvc, holdBuildLock, UI_DIR } from './scripts/build-lib.ts';

const OUTFILE = 'dist/svc';

holdBuildLock();
await checkManifest();
try {
  await bundleUi(UI_DIR);
  await compileSvc({ outfile: OUTFILE, uiDir: UI_DIR, profile: true });
} finally {
  rmSync(UI_DIR, { recursive: true, force: true });
}
console.error(`built ${OUTFILE}`);
