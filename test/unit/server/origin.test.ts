import { describe, expect, test } from 'bun:test';
import { classifyOrigin, isLoopbackOrigin, parseOriginList } from '../../../src/server/origin.ts';
import { ENV_VARS } from '../../../src/core/config/env-vars.ts';
import { isRoutingKey, routingChanges } from '../../../src/server/routing-guard.ts';

describe('origins', () => {
  test('loopback origins are http on 127.0.0.1, localhost or [::1], any port', () => {
    for (const o of ['http://127.0.0.1:3000', 'http://localhost', 'http://[::1]:8080', 'http://LOCALHOST:1']) expect([o, isLoopbackOrigin(o)]).toEqual([o, true]);
    for (const o of ['https://localhost', 'http://127.0.0.1.evil.example', 'http://localhost.evil.example', 'null', '', 'http://127.0.0.2', 'file://']) expect([o, isLoopbackOrigin(o)]).toEqual([o, false]);
  });

  test('a request is trusted from a loopback or listed origin, or from the page this server served; foreign otherwise', () => {
    const listed = parseOriginList('https://lab.example, https://nb.example:8443', 'test');
    expect(classifyOrigin(null, '127.0.0.1:8765', listed)).toBe('none');
    expect(classifyOrigin('https://lab.example', '127.0.0.1:8765', listed)).toBe('trusted');
    expect(classifyOrigin('https://LAB.example:443', '127.0.0.1:8765', listed)).toBe('trusted');
    expect(classifyOrigin('https://nb.example', '127.0.0.1:8765', listed)).toBe('foreign');
    expect(classifyOrigin('http://192.168.1.5:8765', '192.168.1.5:8765', listed)).toBe('trusted');
    expect(classifyOrigin('http://192.168.1.5:8766', '192.168.1.5:8765', listed)).toBe('foreign');
    expect(classifyOrigin('null', '127.0.0.1:8765', listed)).toBe('foreign');
  });

  test('a list entry must be a bare http(s) origin', () => {
    expect([...parseOriginList('https://a.example/ http://b.example:81', 'x')]).toEqual(['https://a.example', 'http://b.example:81']);
    for (const bad of ['*', 'https://*.example', 'https://a.example/path', 'a.example', 'ftp://a.example', 'https://u@a.example', 'https://a.example?x=1']) {
      expect(() => parseOriginList(bad, 'SVC_GUI_CORS_ORIGINS')).toThrow('is not an origin');
    }
  });
});

describe('routing keys', () => {
  test('names that say where requests go', () => {
    for (const k of ['localllm_host', 'LLM_API_BASE', 'OPENAI_BASE_URL', 'base_url', 'ssh_host', 'endpoint', 'registry_url', 'OLLAMA_HOST']) expect([k, isRoutingKey(k)]).toEqual([k, true]);
    for (const k of ['language', 'PROVIDERA_API_KEY', 'hostname_note', 'urls', 'model']) expect([k, isRoutingKey(k)]).toEqual([k, false]);
  });

  test('variables the table marks as routing count whatever their name: API bases, registry lists, publish targets', () => {
    for (const k of ['SVC_HOSTING_DOI_API', 'SVC_HOSTING_RELEASE_API', 'SVC_REGISTRIES_FILE', 'SVC_HOSTING_RELEASE_REPO', 'SVC_OBJECT_STORE_BUCKET', 'api_url']) expect([k, isRoutingKey(k)]).toEqual([k, true]);
    // every variable whose name says it routes is marked in the table too, so the mark is the one rule
    const unmarked = ENV_VARS.filter((e) => /(^|_)(HOST|URL|ENDPOINT|API|API_BASE)$/.test(e.name) && !e.routing).map((e) => e.name);
    expect(unmarked).toEqual([]);
  });

  test("the switches that open this machine and the local network to the web skill's fetch_url", () => {
    for (const k of ['SVC_WEB_ALLOW_PRIVATE', 'SVC_WEB_ALLOW_HOSTS', 'SVC_WEB_SEARCH_URL', 'allow_private', 'allow_hosts']) expect([k, isRoutingKey(k)]).toEqual([k, true]);
    expect(routingChanges({ web: { allow_private: true, allow_hosts: [] } }, { web: { allow_private: false, allow_hosts: [] } })).toEqual(['web.allow_private']);
  });

  test('only keys whose value changes count, at any depth; blank and absent are the same', () => {
    const current = { llm: { base_url: '', model: 'a' }, memory: { membackend: { base_url: 'http://localhost:8283' } } };
    expect(routingChanges({ llm: { base_url: null, model: 'b' } }, current)).toEqual([]);
    expect(routingChanges({ memory: { membackend: { base_url: 'http://localhost:8283' } } }, current)).toEqual([]);
    expect(routingChanges({ llm: { base_url: 'https://x' }, memory: { membackend: { base_url: 'http://y' } } }, current)).toEqual(['llm.base_url', 'memory.membackend.base_url']);
    expect(routingChanges({ endpoint: 'https://x' }, null, 'publish')).toEqual(['publish.endpoint']);
    expect(routingChanges('not a mapping', current)).toEqual([]);
    // inside lists, item by item
    const stages = { pipeline: [{ stage: 'a', inputs: { base_url: 'http://x' } }, { stage: 'b' }] };
    expect(routingChanges(stages, stages)).toEqual([]);
    expect(routingChanges({ pipeline: [{ stage: 'a', inputs: { base_url: 'https://evil.example' } }, { stage: 'b' }] }, stages)).toEqual(['pipeline[0].inputs.base_url']);
    expect(routingChanges({ registries: [{ name: 'lab', url: 'https://evil.example' }] }, { registries: [] })).toEqual(['registries[0].url']);
  });
});
