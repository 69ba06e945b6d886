import { describe, expect, test } from 'bun:test';
import { InputError } from '../../../src/core/errors.ts';
import { DEFAULT_MA_EMBED_MODEL, maSettings } from '../../../src/ideas/ma-settings.ts';

describe('maSettings', () => {
  test("the spec's defaults: 7 rounds, teams of 3, 16 authors, 800 papers, n_ideas teams, a scientific-document model, live", () => {
    expect(maSettings({}, 3)).toEqual({ k: 7, teamSize: 3, nAuthors: 16, nPapers: 800, maxTeams: 3, embedModel: DEFAULT_MA_EMBED_MODEL, live: true });
    expect(DEFAULT_MA_EMBED_MODEL).toBe('allenai/specter2_base');
  });

  test('each variable is read; none turns the embedding model off, default names the default', () => {
    const env = { SVC_IDEA_MA_K: '2', SVC_IDEA_MA_TEAM_SIZE: '4', SVC_IDEA_MA_N_AUTHORS: '5', SVC_IDEA_MA_N_PAPERS: '50', SVC_IDEA_MA_MAX_TEAMS: '6', SVC_IDEA_MA_EMBED_MODEL: 'localllm/nomic-embed-text', SVC_IDEA_MA_LIVE: '0' };
    expect(maSettings(env, 3)).toEqual({ k: 2, teamSize: 4, nAuthors: 5, nPapers: 50, maxTeams: 6, embedModel: 'localllm/nomic-embed-text', live: false });
    expect(maSettings({ SVC_IDEA_MA_EMBED_MODEL: 'none' }, 1).embedModel).toBeNull();
    expect(maSettings({ SVC_IDEA_MA_EMBED_MODEL: 'default' }, 1).embedModel).toBe(DEFAULT_MA_EMBED_MODEL);
  });

  test('out of range or not a whole number: refused naming the variable and the range', () => {
    const cases: [Record<string, string>, string][] = [
      [{ SVC_IDEA_MA_K: '0' }, "SVC_IDEA_MA_K must be an integer from 1 to 20, got '0'"],
      [{ SVC_IDEA_MA_K: '-1' }, "SVC_IDEA_MA_K must be an integer from 1 to 20, got '-1'"],
      [{ SVC_IDEA_MA_TEAM_SIZE: '9' }, "SVC_IDEA_MA_TEAM_SIZE must be an integer from 1 to 8, got '9'"],
      [{ SVC_IDEA_MA_N_AUTHORS: '2.5' }, "SVC_IDEA_MA_N_AUTHORS must be an integer from 1 to 64, got '2.5'"],
      [{ SVC_IDEA_MA_N_PAPERS: 'lots' }, "SVC_IDEA_MA_N_PAPERS must be an integer from 1 to 5000, got 'lots'"],
      [{ SVC_IDEA_MA_MAX_TEAMS: '17' }, "SVC_IDEA_MA_MAX_TEAMS must be an integer from 1 to 16, got '17'"],
      [{ SVC_IDEA_MA_LIVE: 'often' }, "SVC_IDEA_MA_LIVE must be on or off, got 'often'"],
    ];
    for (const [env, message] of cases) {
      expect(() => maSettings(env, 3)).toThrow(InputError);
      expect(() => maSettings(env, 3)).toThrow(message);
    }
  });
});
