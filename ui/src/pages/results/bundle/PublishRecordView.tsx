import { useId, useState } from 'react';
import { postJson } from '../../../api.ts';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { when } from '../../../format.ts';
import { Fact } from './parts.tsx';
import { type Outcome, OutcomeNotice } from '../../../components/OutcomeNotice.tsx';
import type { PromoteTarget, PublishRecord, RecordAnswer } from './types.ts';

/** The keys of a record's `extra` that are addresses to open, as the backends name them. */
const LINK_KEYS = ['doi_url', 'record_url', 'html_url', 'asset_url', 'url', 'deposition_url'];

/** Where promotion may go from each visibility: up only, demotion is refused. */
const PROMOTIONS: Record<string, PromoteTarget[]> = { staged: ['unlisted', 'public'], unlisted: ['public'], 'private-token': ['public'] };

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null);

/** The publish record (where the bundle went, its id or DOI, status and hashes) and Promote. */
export function PublishRecordView({ run, record, onPromoted }: { run: string; record: PublishRecord; onPromoted: () => void }) {
  const { extra } = record;
  const links = LINK_KEYS.flatMap((k) => {
    const v = text(extra[k]);
    return v && /^https?:\/\//.test(v) ? [[k, v] as const] : [];
  });
  const doi = text(extra.doi);
  const id = text(extra.id) ?? text(extra.deposition_id) ?? text(extra.release_id);
  return (
    <div className="bundle-record">
      <dl className="facts">
        <Fact name="backend" value={record.backend} />
        <Fact
          name="status"
          value={
            <>
              <span className={`badge bundle-visibility-${record.visibility}`}>{record.visibility}</span>
              {record.dry_run && <span className="badge bundle-dry-run">dry run: nothing was sent</span>}
            </>
          }
        />
        <Fact name="ref" value={<code>{record.ref}</code>} />
        {doi && <Fact name="DOI" value={doi} />}
        {id && <Fact name="id" value={id} />}
        {text(extra.registry) && <Fact name="registry" value={text(extra.registry)} />}
        {links.map(([k, url]) => (
          <Fact
            key={k}
            name={k.replace(/_/g, ' ')}
            value={
              <a href={url} target="_blank" rel="noreferrer">
                {url}
              </a>
            }
          />
        ))}
        <Fact name="bundle digest" value={<code className="bundle-hash">{record.bundle_sha256}</code>} />
        {text(extra.tarball_sha256) && <Fact name="tarball SHA-256" value={<code className="bundle-hash">{text(extra.tarball_sha256)}</code>} />}
        <Fact name="published" value={when(record.timestamp)} />
        {record.promoted_at && <Fact name="promoted" value={when(record.promoted_at)} />}
      </dl>
      {record.promote_failed_at && (
        <p className="notice error">
          The last promotion failed ({when(record.promote_failed_at)}){text(extra.promote_error) ? `: ${text(extra.promote_error)}` : '.'}
        </p>
      )}
      {!record.dry_run && <Promote run={run} record={record} onPromoted={onPromoted} />}
    </div>
  );
}

function Promote({ run, record, onPromoted }: { run: string; record: PublishRecord; onPromoted: () => void }) {
  const targets = PROMOTIONS[record.visibility] ?? [];
  const [target, setTarget] = useState<PromoteTarget>(targets[0] ?? 'public');
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const id = useId();
  const chosen = targets.includes(target) ? target : targets[0];
  const promote = () => {
    setAsking(false);
    setBusy(true);
    setOutcome(null);
    postJson<RecordAnswer>(`/api/publish/${encodeURIComponent(run)}/promote`, { target: chosen })
      .then(({ record: r }) => {
        setOutcome({ ok: true, text: `Promoted to ${r.visibility}.` });
        onPromoted();
      })
      .catch((err: unknown) => {
        setOutcome({ ok: false, text: (err as Error).message });
        // a failed promotion is recorded too
        onPromoted();
      })
      .finally(() => setBusy(false));
  };
  return (
    <>
      {chosen ? (
        <div className="toolbar bundle-promote">
          <label htmlFor={`${id}-target`}>
            Promote to
            <select id={`${id}-target`} value={chosen} onChange={(e) => setTarget(e.target.value as PromoteTarget)}>
              {targets.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </label>
          <button type="button" onClick={() => setAsking(true)} disabled={busy}>
            {busy ? 'Promoting…' : 'Promote…'}
          </button>
        </div>
      ) : (
        <p className="meta">The bundle is {record.visibility}: there is nothing to promote it to.</p>
      )}
      <OutcomeNotice outcome={outcome} />
      {asking && chosen && (
        <ConfirmDialog title={`Promote the bundle to ${chosen}?`} confirm={`Promote to ${chosen}`} onConfirm={promote} onCancel={() => setAsking(false)}>
          <p>
            {record.ref} on {record.backend} becomes {chosen === 'public' ? 'public: anyone can find and fetch it' : 'unlisted: anyone with its id can fetch it'}.
          </p>
          <p>This cannot be undone: a bundle is never demoted.</p>
        </ConfirmDialog>
      )}
    </>
  );
}
