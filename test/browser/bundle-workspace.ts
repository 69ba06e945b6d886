import { join } from 'node:path';
import { writeEarCheckpoint } from '../support/checkpoint.ts';

/** The run of the bundle tests: an ear/ folder with code, data and two secrets curation must leave out. */
export const BUNDLE_RUN = '20260301090000_bundle';

/** A publish.yaml the server accepts: everything, to the registry, asking for public. */
export const VALID_YAML = 'include:\n  - "**/*"\nbackend: svc-registry\nvisibility: public\nlicense: MIT\n';

/** The files of the run's ear/ folder; `.env` and `id_rsa` are on the built-in deny list. */
const EAR_FILES = {
  'code/train.py': 'import numpy as np\nprint(np.arange(3).sum())\n',
  'code/util.py': 'def mean(xs):\n    return sum(xs) / len(xs)\n',
  'data/results.csv': 'seed,score\n1,0.81\n2,0.84\n',
  'README.md': '# Reproduce\n\nRun ./reproduce.sh.\n',
  'reproduce.sh': '#!/bin/sh\npython3 code/train.py\n',
  '.env': 'OPENAI_API_KEY=not-for-publishing\n',
  id_rsa: 'PRIVATE KEY\n',
};

/** The run without publish.yaml (with one when `yaml` is given), not curated. */
export function fillBundleWorkspace(checkpoints: string, yaml?: string): void {
  writeEarCheckpoint(join(checkpoints, BUNDLE_RUN), yaml === undefined ? EAR_FILES : { ...EAR_FILES, 'publish.yaml': yaml });
}
