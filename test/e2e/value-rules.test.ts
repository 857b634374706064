import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeedFile } from '../../src/sandbox/index.js';
import { calls, planExits, world, type World } from './helpers.js';

/**
 * Values the plan would accept and the server then refuses or ignores (issue 27 item 1): each is a plan
 * error at its file:line:col, before anything is written.
 */

const seed: SeedFile = { users: [{ username: 'root', admin: true, email: 'root@example.com' }] };

function placeIn(yaml: string, text: string): string {
  const before = yaml.slice(0, yaml.indexOf(text)).split('\n');
  return `${before.length}:${before[before.length - 1]!.length + 1}`;
}

describe('server-side value rules at plan time', () => {
  let w: World;
  beforeAll(async () => (w = await world(seed, { flavour: 'gitea@1.26' })));
  afterAll(async () => w.sandbox.close());

  it('an admin hook name with surrounding spaces is refused at its place (Gitea 1.26 trims it), nothing written', async () => {
    const yaml = `version: 1
hooks:
  - scope: system
    type: gitea
    url: https://ci.example/hook
    name: " deploy "
`;
    const file = w.config(yaml, 'hook.yaml');
    w.sandbox.clearRequests();
    const r = await planExits(w, file, 1);
    expect(r.stderr).toContain(`${file}:${placeIn(yaml, 'name:')}: name: " deploy " has surrounding spaces, which Gitea 1.26 trims`);
    expect(r.stderr).toContain('write it without the spaces');
    expect(calls(w.sandbox).filter((c) => !c.startsWith('GET'))).toEqual([]);
  });
});
