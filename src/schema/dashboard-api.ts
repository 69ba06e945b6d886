import { Type as T } from '@sinclair/typebox';

// The request bodies of the dashboard API (`svc viz`), as its routes validate them.

/** POST /api/ear/<run_id>/publish-yaml: the file's text, or its keys (one of the two). */
export const PublishYamlBody = T.Object({
  yaml: T.Optional(T.String({ maxLength: 1_000_000, description: 'publish.yaml as text' })),
  config: T.Optional(T.Record(T.String(), T.Unknown(), { description: 'publish.yaml as keys' })),
});

/** POST /api/ear/<run_id>/curate: optional; no body curates without listing files. */
export const CurateBody = T.Object(
  { show_files: T.Optional(T.Boolean({ description: 'list the curated files in the answer' })) },
  { additionalProperties: false },
);

/** POST /api/publish/settings: publish keys to set (null removes one); never a token. */
export const PublishSettingsBody = T.Record(T.String({ maxLength: 100 }), T.Unknown(), { maxProperties: 100 });

/** POST /api/publish/<run_id>: a JSON object is required (send {} for the defaults), so a malformed body never publishes. */
export const PublishBody = T.Object(
  {
    backend: T.Optional(T.String({ maxLength: 100 })),
    visibility: T.Optional(T.String({ maxLength: 100 })),
    dry_run: T.Optional(T.Boolean()),
    consent: T.Optional(T.Boolean({ description: 'required to send the bundle off this machine, unless dry_run' })),
  },
  { additionalProperties: false },
);

/** POST /api/publish/<run_id>/promote */
export const PublishPromoteBody = T.Object({ target: T.Union([T.Literal('public'), T.Literal('unlisted')]) }, { additionalProperties: false });
