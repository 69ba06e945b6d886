import { basename, join, resolve } from 'node:path';
import type { Config } from '../core/config/config.ts';
import { mergedEnv } from '../core/config/environment.ts';
import { type Env, envValue } from '../core/config/env-vars.ts';
import { InputError } from '../core/errors.ts';
import { experimentsDirOf } from '../core/workspace.ts';
import { CASSETTE_FILE, CassettePlayer, type VolatileParts } from './cassette.ts';
import { checkpointFile } from './checkpoint-file.ts';
import { CostLedger } from './ledger.ts';
import { type ModelLimits, readLimits } from './limits.ts';
import { PriceBook } from './prices.ts';

export type CallContextOptions = {
  cfg: Config;
  /** the run's checkpoint, where the cost ledger, cassette and price overrides live: SVC_CHECKPOINT_DIR when absent (a skill process), null for none */
  checkpointDir?: string | null;
  /** keys and the model layer's variables; the config's environment over its .env files when absent */
  env?: Env;
};

/** What every model call of a client shares: its limits, the run's cost ledger, prices and cassette. */
export type CallContext = {
  env: Env;
  limits: ModelLimits;
  ledger: CostLedger;
  prices: PriceBook;
  /** the cassette answered calls are appended to, null when not recording */
  recordTo: string | null;
  /** what names the run in requests, left out of cassette keys */
  volatile: VolatileParts;
  /** the cassette the replay backend answers from, opened on first use */
  player(): CassettePlayer;
};

export function callContext(opts: CallContextOptions): CallContext {
  const env = opts.env ?? mergedEnv(opts.cfg.env, opts.cfg.dotenv);
  const limits = readLimits(env);
  const checkpointDir = opts.checkpointDir === undefined ? envValue(env, 'SVC_CHECKPOINT_DIR') : opts.checkpointDir;
  let player: CassettePlayer | null = null;
  return {
    env,
    limits,
    ledger: new CostLedger(checkpointDir, limits.budgetUsd),
    prices: PriceBook.load(limits.pricesFile, checkpointDir),
    recordTo: checkpointDir && limits.record ? checkpointFile(checkpointDir, CASSETTE_FILE) : null,
    volatile: volatileParts(checkpointDir),
    player() {
      if (player) return player;
      const path = limits.replayCassette ?? (checkpointDir ? join(checkpointDir, CASSETTE_FILE) : null);
      if (!path) throw new InputError('the replay backend needs a cassette', 'set SVC_REPLAY_CASSETTE, or run with a checkpoint directory that holds llm_cassette.jsonl');
      return (player = new CassettePlayer(path));
    },
  };
}

/** What names a run in its requests: the same search replayed in another checkpoint asks the same. */
function volatileParts(checkpointDir: string | null): VolatileParts {
  if (!checkpointDir) return [];
  const dir = resolve(checkpointDir);
  const runId = basename(dir);
  return [
    [dir, '{checkpoint}'],
    [experimentsDirOf(dir), '{experiments}'],
    // the root node's id holds the run id (search/node.ts rootIdOf); matched whole, a short run id is left out there too
    [`node_${runId}_root`, 'node_{run_id}_root'],
    [runId, '{run_id}'],
  ];
}
