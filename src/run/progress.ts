import { bestNode, type SearchNode, scoreOf } from '../search/contract.ts';

export type Progress = { nodes(nodes: readonly SearchNode[]): void; line(msg: string): void; end(): void };

/**
 * The run's progress on stderr: one line per message, and a status line (nodes done, running,
 * failed, best score, cost so far) whenever it changes. On a terminal the status line is redrawn
 * in place; otherwise (a log file) each change is its own line.
 */
export function progressPrinter(out: NodeJS.WriteStream, maxNodes: number, costUsd: () => number): Progress {
  const tty = out.isTTY === true;
  let last = '';
  let shown = false;
  const clear = () => {
    if (tty && shown) out.write('\r\x1b[2K');
    shown = false;
  };
  return {
    nodes(nodes) {
      const status = statusLine(nodes, maxNodes, costUsd());
      if (status === last) return;
      last = status;
      if (tty) {
        out.write(`\r\x1b[2K${status}`);
        shown = true;
      } else {
        out.write(`${status}\n`);
      }
    },
    line(msg) {
      clear();
      out.write(`svc: ${msg}\n`);
      if (tty && last) {
        out.write(last);
        shown = true;
      }
    },
    end() {
      if (tty && shown) out.write('\n');
      shown = false;
    },
  };
}

export function statusLine(nodes: readonly SearchNode[], maxNodes: number, costUsd: number): string {
  const count = (s: SearchNode['status']) => nodes.filter((n) => n.status === s).length;
  const best = bestNode(nodes);
  const bestText = best ? `best ${scoreOf(best).toFixed(3)} (${best.id})` : 'best -';
  return `nodes ${count('success')} done, ${count('running')} running, ${count('failed')} failed, ${count('pending')} pending (cap ${maxNodes}) · ${bestText} · $${costUsd.toFixed(4)}`;
}
