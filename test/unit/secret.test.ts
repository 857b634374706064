import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect, isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { opsInput } from '../support/ops-input.js';
import { loadConfig } from '../../src/config/load.js';
import type { GiteaClient } from '../../src/gitea/client.js';
import { hookKind } from '../../src/kinds/hook/index.js';
import type { Scope } from '../../src/kinds/types.js';
import { userKind } from '../../src/kinds/user/index.js';
import { resolvePlanSecrets, serializePlan } from '../../src/plan/planfile.js';
import { makeKindContext } from '../../src/plan/planner.js';
import type { Plan } from '../../src/plan/types.js';
import { show } from '../../src/render/values.js';
import { redactor } from '../../src/redact.js';
import { isSecret, revealSecrets, Secret, urlHasCredentials } from '../../src/secret.js';
import { planRequest } from '../../src/model/index.js';

const VALUE = 'a "quoted"\\ välue\nwith two lines';

describe('a Secret', () => {
  const s = new Secret(VALUE, '${PW}');
  it('prints as (sensitive, from ${NAME}) whatever turns it into text: the variable it is read from, never its value (issue 28)', () => {
    expect(String(s)).toBe('(sensitive, from ${PW})');
    expect(`${s}`).toBe('(sensitive, from ${PW})');
    expect(JSON.stringify({ password: s })).toBe('{"password":"(sensitive, from ${PW})"}');
    expect(inspect({ nested: [s] })).not.toContain('quoted');
    expect(show(s)).toBe('(sensitive, from ${PW})');
    expect(new Error(`refused: ${s}`).message).toBe('refused: (sensitive, from ${PW})');
    // A template with text beside the reference is quoted; one that reads no variable (a value the server holds) says nothing more.
    expect(String(new Secret(VALUE, 'Bearer ${TOKEN}'))).toBe('(sensitive, from "Bearer ${TOKEN}")');
    expect(String(new Secret(VALUE, 'literal'))).toBe('(sensitive)');
    // The Action renders the plan the CLI printed as JSON: a sensitive field keeps its description, and nothing else of it shows.
    expect(show('(sensitive, from ${PW})', true)).toBe('(sensitive, from ${PW})');
    expect(show('hunter2', true)).toBe('(sensitive)');
  });
  it('gives its value only to reveal(), which the HTTP client applies to a body', () => {
    expect(s.reveal()).toBe(VALUE);
    expect(revealSecrets({ config: { secret: s, url: 'u' }, list: [s] })).toEqual({ config: { secret: VALUE, url: 'u' }, list: [VALUE] });
  });
  it('compares equal to a Secret of the same template only', () => {
    expect(isDeepStrictEqual(s, new Secret('other', '${PW}'))).toBe(true);
    expect(isDeepStrictEqual(s, new Secret(VALUE, '${OTHER}'))).toBe(false);
  });
});

describe('the output mask', () => {
  it('covers the value, its JSON-escaped form and each of its lines (src/redact.ts; every other encoded form: test/unit/redact.test.ts)', () => {
    const mask = redactor([VALUE], '(sensitive)');
    for (const form of [VALUE, 'a \\"quoted\\"\\\\ välue\\nwith two lines', 'a "quoted"\\ välue', 'with two lines']) expect(mask(`before ${form} after`), form).toBe('before (sensitive) after');
    expect(redactor(['ab'], '(sensitive)')('ab cab')).toBe('ab cab');
  });
});

describe('a URL with credentials', () => {
  it('is recognised with or without a scheme, and not confused with an @ in the path', () => {
    expect(urlHasCredentials('https://root:pw@git.example.com')).toBe(true);
    expect(urlHasCredentials('http://token@127.0.0.1:3000/')).toBe(true);
    expect(urlHasCredentials('root:pw@git.example.com')).toBe(true);
    expect(urlHasCredentials('https://git.example.com/@user')).toBe(false);
    expect(urlHasCredentials('https://git.example.com')).toBe(false);
  });
});

describe('secrets from the config to a plan file and back', () => {
  const server: Scope = { type: 'server', name: '' };
  it('wrap sensitive fields in Secrets carrying their ${NAME} template; a saved plan stores the template only', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'forgeform-secret-'));
    const file = join(dir, 'forgeform.yaml');
    writeFileSync(
      file,
      [
        'version: 1',
        'users:',
        '  carol: { email: carol@example.com, password: "${PW}" }',
        'hooks:',
        '  - { url: "https://ci.example.com", secret: "${env:HOOK}", authorization_header: "Bearer $${x} ${TOKEN}" }',
      ].join('\n'),
    );
    const loaded = await loadConfig([file], { PW: VALUE, HOOK: 'hook-value', TOKEN: 'tok-value' });
    const ctx = makeKindContext({} as GiteaClient, loaded);
    const users = await userKind.desired({ ...planRequest(userKind, server, ctx), entry: loaded.config });
    const hooks = await hookKind.desired({ ...planRequest(hookKind, server, ctx), entry: loaded.config });
    expect([...users!.problems, ...hooks!.problems]).toEqual([]);
    const password = users!.objects[0]!.fields.password as Secret;
    const hook = hooks!.objects[0]!.fields;
    expect(isSecret(password) && password.reveal()).toBe(VALUE);
    expect(password.template).toBe('${PW}');
    expect((hook.secret as Secret).template).toBe('${HOOK}');
    expect((hook.authorization_header as Secret).template).toBe('Bearer $${x} ${TOKEN}');
    expect((hook.authorization_header as Secret).reveal()).toBe('Bearer ${x} tok-value');

    const op = hookKind.ops(opsInput(hookKind, { scope: server, action: 'create', desired: hooks!.objects[0]!, changed: [], ctx }))[0]!;
    const plan = {
      format_version: 1,
      server: 'https://git.example.com',
      changes: [{ id: 'h', kind: 'hook', key: 'system gitea https://ci.example.com', fields: [{ path: 'secret', after: hook.secret, sensitive: true }], ops: [op] }],
    } as unknown as Plan;
    const text = serializePlan(plan);
    for (const value of ['hook-value', 'tok-value']) expect(text).not.toContain(value);
    const saved = JSON.parse(text) as { changes: { ops: { body: { config: unknown; authorization_header: unknown } }[] }[] };
    expect(saved.changes[0]!.ops[0]!.body).toMatchObject({ config: { secret: { $env: '${HOOK}' } }, authorization_header: { $env: 'Bearer $${x} ${TOKEN}' } });

    const resolved = resolvePlanSecrets(JSON.parse(text) as Plan, { HOOK: 'hook-again', TOKEN: 'tok-again' });
    expect(resolved.missing).toEqual([]);
    const body = resolved.plan.changes[0]!.ops[0]!.body as { config: { secret: Secret }; authorization_header: Secret };
    expect(revealSecrets(body)).toMatchObject({ config: { secret: 'hook-again' }, authorization_header: 'Bearer ${x} tok-again' });
    expect(JSON.stringify(resolved.plan)).not.toMatch(/hook-again|tok-again/);
    expect(isSecret(resolved.plan.changes[0]!.fields[0]!.after)).toBe(true);
  });

  it('saves values that are not secret as they are (masking is by type), and refuses to save one that holds the value of a secret', () => {
    const plan = {
      format_version: 1,
      server: 'https://git.example.com',
      changes: [{ id: 'x', key: 'system gitea https://hooks.example.com/a', fields: [{ path: 'description', after: 'made by ${who} for alice' }], ops: [{ method: 'POST', path: 'p', body: { description: 'made by ${who} for alice' } }] }],
    } as unknown as Plan;
    const text = serializePlan(plan);
    expect(JSON.parse(text)).toEqual(plan);
    expect(resolvePlanSecrets(JSON.parse(text) as Plan, {}).plan).toEqual(plan);

    const echoed = { ...plan, changes: [{ ...plan.changes[0]!, fields: [{ path: 'secret', after: new Secret('s3cret-value', '${S}'), sensitive: true }, { path: 'description', after: 'echo s3cret-value' }] }] } as unknown as Plan;
    expect(() => serializePlan(echoed)).toThrow('a value that is not secret holds the value of a secret field: refusing to write it to the plan file');
  });

  it('refuses a secret written in the config, without taking it for one read elsewhere', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'forgeform-secret-'));
    const file = join(dir, 'forgeform.yaml');
    writeFileSync(file, ['version: 1', 'users:', '  a: { email: a@example.com, password: "same-value", full_name: "${NAME}" }'].join('\n'));
    const loaded = await loadConfig([file], { NAME: 'same-value' });
    const users = await userKind.desired({ ...planRequest(userKind, server, makeKindContext({} as GiteaClient, loaded)), entry: loaded.config });
    expect(users!.problems.map((p) => p.message)).toEqual([expect.stringMatching(/^password is a secret and must come from an environment variable/)]);
    expect(isSecret(users!.objects[0]!.fields.password)).toBe(true);
  });
});
