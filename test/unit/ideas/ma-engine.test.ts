import { describe, expect, test } from 'bun:test';
import { InputError } from '../../../src/core/errors.ts';
import { ideaEngine, MA_ENGINE_MISSING } from '../../../src/ideas/ma-engine.ts';

describe('ideaEngine', () => {
  test('unset, empty or off: the built-in loop, plain reimpl', () => {
    for (const env of [{}, { SVC_IDEA_MA_REAL: '' }, { SVC_IDEA_MA_REAL: 'off' }, { SVC_IDEA_MA_REAL: '0' }]) {
      expect(ideaEngine(env)).toEqual({ status: 'reimpl', fallback: null });
    }
  });

  test('on: the real engine is asked for, not in this build, so reimpl with the reason', () => {
    for (const v of ['1', 'on', 'true', 'YES']) {
      expect(ideaEngine({ SVC_IDEA_MA_REAL: v })).toEqual({ status: `reimpl: ${MA_ENGINE_MISSING}`, fallback: MA_ENGINE_MISSING });
    }
    expect(MA_ENGINE_MISSING).toMatch(/not included in this build/);
  });

  test('anything else is refused, naming the variable', () => {
    expect(() => ideaEngine({ SVC_IDEA_MA_REAL: 'maybe' })).toThrow(InputError);
    expect(() => ideaEngine({ SVC_IDEA_MA_REAL: 'maybe' })).toThrow("SVC_IDEA_MA_REAL must be on or off, got 'maybe'");
  });
});
