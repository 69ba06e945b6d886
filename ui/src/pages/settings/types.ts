// The answers the Settings page reads; fields as the server's routes give them.

/** GET/POST /api/settings: every key with its value; `_sources` says where each comes from. */
export type SettingsView = Record<string, unknown> & { ors?: Record<string, unknown>; _sources: Record<string, string> };

export type ModelRole = { role: string; model: string; backend: string; baseUrl: string | null; why: string };
export type Models = {
  roles: ModelRole[];
  local: { url: string; reachable: boolean; error?: string; models?: string[] };
  providers: { id: string; key_variable: string; key_present: boolean; models: string[]; models_from: string }[];
  openai_compatible: { base_url: string | null; key_present: boolean };
};

/** GET /api/env-keys: names and where they are set, never values. */
export type EnvKey = { name: string; meaning: string; secret: boolean; set: boolean; source: string | null };
export type EnvKeysSaved = { ok: true; saved: string[]; file: string };

export type MemoryDeployment = { path: string; found_by: string; id: string; url: string; managed: boolean; reachable: boolean; version?: string };
export type MemoryDetect = { url: string; reachable: boolean; version?: string; error?: string; deployments: MemoryDeployment[]; probes: Record<string, string> };
export type MemoryStart = { started: boolean; url: string; path: string | null; pid: number | null; version?: string; message: string };
export type MemoryStop = { stopped: boolean; message: string; warnings: string[] };

export type Partition = { name: string; default: boolean; available: string; timelimit: string; nodes: number; gres: string[] };
export type ContainerRuntime = { runtime: string; found: boolean; path?: string; version?: string; daemon?: boolean; error?: string };
export type ContainerInfo = { mode: string; pull: string; image: string | null; network: boolean; runtime: string | null; found: boolean; version?: string; runtimes: ContainerRuntime[] };

export type SshProbe = { ok: true; host: string; elapsed_ms: number } | { ok: false; host: string; reason: string };

export type Profiles = { profiles: { name: string; values: Record<string, string | number> }[]; selected: string | null };

export type Rubric = { id: string; venue: string; domain: string; version: string; source: string; dimensions: string[] };
export type Rubrics = { rubrics: Rubric[]; default: string; warning?: string; problems: string[] };
export type FewshotExample = { id: string; record: Record<string, unknown>; has_text: boolean; has_pdf: boolean; source: string | null };
export type Fewshot = { rubric: string; examples: FewshotExample[]; problems: string[] };

/** GET /api/doctor: what svc will use here and whether it works, as `svc doctor --json` prints it. */
export type DoctorRow = { area: string; item: string; status: 'ok' | 'warn' | 'fail' | 'skip'; detail: string; fix?: string; needed: boolean };
export type DoctorReport = { rows: DoctorRow[]; ok: boolean };
