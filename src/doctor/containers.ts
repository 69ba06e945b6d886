import type { Config } from '../core/config/config.ts';
import { oneLine } from '../core/errors.ts';
import { runtimeFromProbes } from '../sandbox/container.ts';
import { containerSettings } from '../sandbox/container-info.ts';
import { probeRuntime, RUNTIMES, type RuntimeProbe, usable } from '../sandbox/detect.ts';
import { imageId } from '../sandbox/node-sandbox.ts';
import { containersUsed } from './needs.ts';
import { type DoctorRow, row } from './row.ts';

const AREA = 'containers';

/**
 * Each container runtime found and answering, then the configured image on the runtime the mode
 * selects. Containers are needed only when an image is configured and the mode is not none.
 */
export async function checkContainers(cfg: Config): Promise<DoctorRow[]> {
  const settings = containerSettings(cfg);
  const used = containersUsed(cfg);
  const probes = await Promise.all(RUNTIMES.map((r) => probeRuntime(r, cfg.env)));
  const rows = probes.map((p) => runtimeRow(p, used && settings.mode === p.runtime));
  if (!used) {
    const why = settings.image === null ? 'no image configured (container.image, SVC_CONTAINER_IMAGE)' : 'container.mode is none';
    return [...rows, row(AREA, 'image', 'skip', `${why}: node commands run without a container`, false)];
  }
  const image = settings.image as string;
  let chosen: ReturnType<typeof runtimeFromProbes>;
  try {
    // the probes above decide: probing again could take the area past its time
    chosen = runtimeFromProbes(settings.mode, probes);
  } catch (err) {
    return [...rows, row(AREA, 'image', 'fail', `${image}: ${oneLine(err)}`, true)];
  }
  if (chosen === null) return [...rows, row(AREA, 'image', 'fail', `${image}: no usable container runtime (docker with its daemon, podman, apptainer, singularity)`, true, 'install podman or start dockerd, or set container.mode to none')];
  if (chosen.runtime === 'apptainer' || chosen.runtime === 'singularity') {
    return [...rows, row(AREA, 'image', 'skip', `${image}: ${chosen.runtime} fetches it as a .sif when a run starts`, true)];
  }
  if ((await imageId(chosen, image, cfg.env)) !== null) return [...rows, row(AREA, 'image', 'ok', `${image} is in ${chosen.runtime}'s store`, true)];
  if (settings.pull === 'never') return [...rows, row(AREA, 'image', 'fail', `${image} is not in ${chosen.runtime}'s store and container.pull is never`, true, `${chosen.runtime} pull ${image}, or set container.pull to on_start`)];
  return [...rows, row(AREA, 'image', 'warn', `${image} is not in ${chosen.runtime}'s store yet: a run pulls it at start (container.pull ${settings.pull})`, true, `${chosen.runtime} pull ${image} to fetch it now`)];
}

function runtimeRow(p: RuntimeProbe, needed: boolean): DoctorRow {
  if (!p.found) return row(AREA, p.runtime, needed ? 'fail' : 'skip', `${p.runtime} is not on PATH`, needed, needed ? `install ${p.runtime}, or set container.mode to auto` : undefined);
  if (usable(p)) return row(AREA, p.runtime, 'ok', `${p.version ?? 'answers'} (${p.path})`, needed);
  const fix = p.runtime === 'docker' ? 'start the docker daemon (dockerd), or use podman' : `check that ${p.runtime} --version runs`;
  return row(AREA, p.runtime, needed ? 'fail' : 'warn', `found at ${p.path} but not answering: ${p.error ?? 'no answer'}`, needed, fix);
}
