import { type Static, Type as T } from '@sinclair/typebox';

export const VISIBILITIES = ['staged', 'public', 'unlisted', 'private-token'] as const;
export const LICENSES = ['MIT', 'Apache-2.0', 'BSD-3-Clause', 'GPL-3.0', 'CC-BY-4.0'] as const;
export const BACKENDS = ['svc-registry', 'local-tarball', 'hosting-release', 'hosting-doi', 'object-store'] as const;

const Visibility = T.Union([...VISIBILITIES.map((v) => T.Literal(v)), T.String({ pattern: '^embargoed-until:\\d{4}-\\d{2}-\\d{2}$' })], {
  description: 'staged, public, unlisted, private-token, or embargoed-until:YYYY-MM-DD',
});

/** publish.yaml, inside a run's `ear/` directory: what a curated bundle holds and where it goes. */
export const Publish = T.Object(
  {
    include: T.Array(T.String({ minLength: 1 }), { minItems: 1, description: 'allowlist of globs relative to ear/' }),
    exclude: T.Optional(T.Array(T.String({ minLength: 1 }), { description: 'globs applied after include; default empty' })),
    max_file_mb: T.Optional(T.Integer({ minimum: 1, description: 'an allowlisted file larger than this fails curation; default 100' })),
    visibility: T.Optional(Visibility),
    required: T.Optional(T.Boolean({ description: 'a publish failure fails the paper pipeline; default false' })),
    auto_promote: T.Optional(T.Boolean({ description: 'promote a staged bundle to public once the reproducibility check passes; default false' })),
    license: T.Optional(T.Union(LICENSES.map((l) => T.Literal(l)), { description: 'SPDX identifier; ear/LICENSE is generated from it' })),
    backend: T.Optional(T.Union(BACKENDS.map((b) => T.Literal(b)), { description: 'default svc-registry; a command-line backend wins' })),
  },
  {
    $id: 'https://svc.dev/schemas/publish.schema.json',
    title: 'svc publish.yaml',
    description: 'Publish configuration of a run, at <checkpoint>/ear/publish.yaml.',
    additionalProperties: false,
  },
);
export type Publish = Static<typeof Publish>;
