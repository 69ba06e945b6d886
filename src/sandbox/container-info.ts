import { type Config, effective } from '../core/config/config.ts';
import { isPresent } from '../core/values.ts';
import { type ChosenRuntime, chooseRuntime, type ContainerMode, type PullPolicy } from './container.ts';
import { probeRuntime, RUNTIMES, type RuntimeProbe } from './detect.ts';
import { resolveImage } from './image.ts';

export type ContainerSettings = {
  mode: ContainerMode;
  pull: PullPolicy;
  /** resolved through the aliases; null: no container */
  image: string | null;
  /** the workflow lets its commands use the network */
  network: boolean;
};

/** The container block in effect: mode, pull and network from the workflow, the image from SVC_CONTAINER_IMAGE or the configuration. */
export function containerSettings(cfg: Config): ContainerSettings {
  const block = cfg.workflow.workflow.container;
  const image = effective(cfg, 'container_image').value;
  return { mode: block.mode as ContainerMode, pull: block.pull as PullPolicy, image: isPresent(image) ? resolveImage(String(image)) : null, network: block.network === true };
}

export type ContainerInfo = ContainerSettings & {
  /** the runtime the mode selects here, null when none (mode none, or nothing usable) */
  runtime: string | null;
  found: boolean;
  version: string | null;
  /** docker: whether its daemon answers; other runtimes have none */
  daemon: boolean | null;
  /** why the configured mode cannot run, when it cannot */
  error?: string;
  runtimes: RuntimeProbe[];
};

/** What the dashboard shows about containers: the settings, the runtime they select, and every runtime probed. */
export async function containerInfo(cfg: Config): Promise<ContainerInfo> {
  const settings = containerSettings(cfg);
  const runtimes = await Promise.all(RUNTIMES.map((r) => probeRuntime(r, cfg.env)));
  let chosen: ChosenRuntime | null = null;
  let error: string | undefined;
  try {
    chosen = await chooseRuntime(settings.mode, cfg.env);
  } catch (err) {
    error = (err as Error).message;
  }
  const probe = chosen?.probe ?? null;
  return {
    ...settings,
    runtime: chosen?.runtime ?? null,
    found: probe?.found ?? false,
    version: probe?.version ?? null,
    daemon: probe?.runtime === 'docker' ? probe.daemon === true : null,
    ...(error ? { error } : {}),
    runtimes,
  };
}
