/**
 * The per-release field rules (src/releases/field-rules/*.json, read by scripts/field-rules.mjs from
 * each tag's `modules/structs/*.go`): the reader, a few facts checked against the tags by hand, and
 * the sandbox's binder playing them on released flavours.
 */
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a script without types
import { fieldRulesOf } from '../../scripts/field-rules.mjs';
import type { ConfigPath, LoadedConfig, SourceLocation } from '../../src/config/types.js';
import { kinds } from '../../src/kinds/index.js';
import { parseServerSpec, type ServerInfo } from '../../src/model/index.js';
import { fieldRuleProblems, releaseProblems } from '../../src/plan/field-rules.js';
import { FIELD_RULE_TABLES, fieldRuleTable, fieldRuleTableOf, structRules } from '../../src/releases/field-rules.js';
import { ruleFailure } from '../../src/releases/rules.js';
import { bindBody } from '../../src/sandbox/http/binding.js';
import { optionFor } from '../../src/sandbox/flavours/options.js';
import { FLAVOURS } from '../../src/sandbox/flavours/flavour.js';
import { CreateTeamOption } from '../../src/sandbox/domains/teams/options.js';
import { CreateOrgOption } from '../../src/sandbox/domains/orgs/options.js';
import { CreateRepoOption, EditRepoOption } from '../../src/sandbox/domains/repos/options.js';
import { EditUserOption } from '../../src/sandbox/domains/users/options.js';
import { bindingFailure } from '../../src/releases/rules.js';

const flavour = (name: string) => FLAVOURS.find((f) => f.name === name)!;
const json = (body: unknown) => ({ method: 'POST', contentType: 'application/json', rawBody: JSON.stringify(body), query: new URLSearchParams() });

describe('field rules', () => {
  it('reads the binding tags of a Go file, with struct, key, rules and line', () => {
    const go = [
      'package structs',
      '// CreateOrgOption options for creating an organization',
      'type CreateOrgOption struct {',
      '\tUserName string `json:"username" binding:"Required;Username;MaxSize(40)"`',
      '\tFullName *string `json:"full_name,omitempty" binding:"MaxSize(100);"`',
      '\tHidden string `json:"-" binding:"Required"`',
      '\tPlain bool `json:"plain"`',
      '}',
      'type Other struct {',
      '\tBranch string `json:"branch_filter" binding:"GlobPattern"`',
      '}',
    ].join('\n');
    expect(fieldRulesOf(go, 'modules/structs/org.go')).toEqual([
      { struct: 'CreateOrgOption', json: 'username', go: 'UserName', type: 'string', rules: ['Required', 'Username', 'MaxSize(40)'], tag: 'Required;Username;MaxSize(40)', at: 'modules/structs/org.go:4' },
      { struct: 'CreateOrgOption', json: 'full_name', go: 'FullName', type: '*string', rules: ['MaxSize(100)'], tag: 'MaxSize(100);', at: 'modules/structs/org.go:5' },
      { struct: 'Other', json: 'branch_filter', go: 'Branch', type: 'string', rules: ['GlobPattern'], tag: 'GlobPattern', at: 'modules/structs/org.go:10' },
    ]);
  });

  it('holds the facts read at the tags (v1.25.4 org.go:53, v1.21.11 and v7.0.16 org_team.go, v1.25.4 hook.go:63)', () => {
    const org = structRules(fieldRuleTable('gitea', 25), 'CreateOrgOption')!;
    expect(org.get('full_name')).toMatchObject({ rules: ['MaxSize(100)'], at: 'modules/structs/org.go:53' });
    expect(org.get('website')?.rules).toEqual(['ValidUrl', 'MaxSize(255)']);
    expect(structRules(fieldRuleTable('gitea', 21), 'CreateTeamOption')!.get('name')?.rules).toContain('MaxSize(30)');
    expect(structRules(fieldRuleTable('forgejo', 7), 'CreateTeamOption')!.get('name')?.rules).toContain('MaxSize(30)');
    expect(structRules(fieldRuleTable('gitea', 22), 'CreateTeamOption')!.get('name')?.rules).toContain('MaxSize(255)');
    expect(structRules(fieldRuleTable('gitea', 25), 'CreateHookOption')!.get('branch_filter')).toMatchObject({ rules: ['GlobPattern'], at: 'modules/structs/hook.go:63' });
    // The hook's name only from 1.26 (main: modules/structs/hook.go), none on 1.25.
    expect(structRules(fieldRuleTable('gitea', 26), 'CreateHookOption')!.get('name')?.rules).toEqual(['MaxSize(255)']);
    expect(structRules(fieldRuleTable('gitea', 25), 'CreateHookOption')!.get('name')).toBeUndefined();
  });

  it('picks the nearest older table for a release between those read, the oldest below them', () => {
    expect(fieldRuleTableOf('forgejo', '12.0.1').release).toBe('forgejo@11');
    expect(fieldRuleTableOf('forgejo', '8.0.3').release).toBe('forgejo@7');
    expect(fieldRuleTableOf('gitea', '1.20.6').release).toBe('gitea@1.21');
    expect(fieldRuleTableOf('gitea', '1.25.4').release).toBe('gitea@1.25');
    expect(fieldRuleTableOf('gitea', '1.27.0').release).toBe('gitea@1.26');
    expect(FIELD_RULE_TABLES).toHaveLength(9);
  });

  it('judges values as go-chi binding does', () => {
    expect(ruleFailure('MaxSize(3)', 'abcd')).toBe('MaxSize');
    expect(ruleFailure('MaxSize(3)', 'äöü')).toBeUndefined();
    expect(ruleFailure('ValidUrl', 'not a url')).toBe('Url');
    expect(ruleFailure('ValidUrl', 'https://example.com')).toBeUndefined();
    expect(ruleFailure('GlobPattern', '[')).toBeTruthy();
    expect(ruleFailure('AlphaDashDot', 'a b')).toBe('AlphaDashDot');
  });

  it("binds a released flavour's bodies with its release's rules: a 31-character team name is a 422 on gitea 1.21 and forgejo 7 only", () => {
    const body = { name: 'a'.repeat(31), permission: 'read', units: ['repo.code'] };
    for (const name of ['gitea@1.21', 'forgejo@7']) expect(bindBody(optionFor(CreateTeamOption, flavour(name)), json(body)).error, name).toBe('[Name]: MaxSize');
    for (const name of ['gitea@1.22', 'gitea@1.26', 'forgejo@11']) expect(bindBody(optionFor(CreateTeamOption, flavour(name)), json(body)).error, name).toBeUndefined();
  });

  it('answers an org whose website is no URL or whose full name is too long as each release does', () => {
    for (const f of FLAVOURS) {
      expect(bindBody(optionFor(CreateOrgOption, f), json({ username: 'acme', website: 'nope' })).error, f.name).toBe('[Website]: Url');
      expect(bindBody(optionFor(CreateOrgOption, f), json({ username: 'acme', full_name: 'x'.repeat(101) })).error, f.name).toBe('[FullName]: MaxSize');
    }
  });

  it('refuses a license name over 100 characters on a repository create from Gitea 1.26 (main modules/structs/repo.go:147), where the hand-written struct had no rule', () => {
    const body = { name: 'widgets', license: 'l'.repeat(101) };
    expect(bindBody(optionFor(CreateRepoOption, flavour('gitea@1.26')), json(body)).error).toBe('[License]: MaxSize');
    expect(bindBody(optionFor(CreateRepoOption, flavour('gitea@1.25')), json(body)).error).toBeUndefined();
  });
});

describe("pointer fields, as each release's binding module judges them", () => {
  const patch = (body: unknown) => ({ method: 'PATCH', contentType: 'application/json', rawBody: JSON.stringify(body), query: new URLSearchParams() });

  it('records the binding module each tag pins (go.mod)', () => {
    expect(fieldRuleTable('gitea', 21).binding).toBe('gitea.com/go-chi/binding v0.0.0-20230415142243-04b515c6d669');
    expect(fieldRuleTable('gitea', 22).binding).toBe('gitea.com/go-chi/binding v0.0.0-20240430071103-39a851e106ed');
    expect(fieldRuleTable('forgejo', 7).binding).toBe('gitea.com/go-chi/binding v0.0.0-20240430071103-39a851e106ed');
    expect(fieldRuleTable('forgejo', 15).binding).toBe('code.forgejo.org/go-chi/binding v1.0.1');
  });

  it("Gitea 1.21 refuses every user website on an edit, a valid URL too (the binder formats the pointer's address: go-gitea/gitea#30518); later releases judge the URL", () => {
    const body = { login_name: 'alice', website: 'https://example.com' };
    expect(bindBody(optionFor(EditUserOption, flavour('gitea@1.21')), patch(body)).error).toBe('[Website]: Url');
    expect(bindBody(optionFor(EditUserOption, flavour('gitea@1.21')), patch({ ...body, website: '' })).error).toBe('[Website]: Url');
    // Omitted: OmitEmpty stops at the nil pointer.
    expect(bindBody(optionFor(EditUserOption, flavour('gitea@1.21')), patch({ login_name: 'alice', full_name: 'A' })).error).toBeUndefined();
    for (const name of ['gitea@1.22', 'gitea@1.25', 'gitea@1.26', 'forgejo@7', 'forgejo@11', 'forgejo@15', 'gitea@main']) {
      expect(bindBody(optionFor(EditUserOption, flavour(name)), patch(body)).error, name).toBeUndefined();
      expect(bindBody(optionFor(EditUserOption, flavour(name)), patch({ ...body, website: 'nope' })).error, name).toBe('[Website]: Url');
    }
  });

  it('runs MaxSize and In on the pointed-to value from Gitea 1.22 and on every Forgejo (a repository edit), never on Gitea 1.21', () => {
    const long = { description: 'd'.repeat(2049) };
    for (const name of ['gitea@1.22', 'gitea@1.25', 'gitea@1.26', 'forgejo@7', 'forgejo@15', 'gitea@main']) {
      expect(bindBody(optionFor(EditRepoOption, flavour(name)), patch(long)).error, name).toBe('[Description]: MaxSize');
      expect(bindBody(optionFor(EditRepoOption, flavour(name)), patch({ description: 'd'.repeat(2048) })).error, name).toBeUndefined();
    }
    expect(bindBody(optionFor(EditRepoOption, flavour('gitea@1.21')), patch(long)).error).toBeUndefined();
    expect(bindBody(optionFor(EditRepoOption, flavour('gitea@1.25')), patch({ projects_mode: 'nope' })).error).toBe('[ProjectsMode]: In');
    expect(bindBody(optionFor(EditRepoOption, flavour('gitea@1.25')), patch({ projects_mode: 'owner' })).error).toBeUndefined();
    // A nil pointer runs no rule but Required: a repository edit without projects_mode passes.
    expect(bindBody(optionFor(EditRepoOption, flavour('gitea@1.25')), patch({ private: true })).error).toBeUndefined();
  });

  it('judges one field in both modes as validateField does', () => {
    const website = { rules: ['OmitEmpty', 'ValidUrl', 'MaxSize(255)'], pointer: true, zero: '' };
    expect(bindingFailure(website, 'https://example.com', 'address')).toEqual({ rule: 'ValidUrl', word: 'Url', address: true });
    expect(bindingFailure(website, undefined, 'address')).toBeUndefined();
    expect(bindingFailure(website, 'https://example.com', 'value')).toBeUndefined();
    expect(bindingFailure(website, 'x'.repeat(300), 'address')?.rule).toBe('ValidUrl');
    const login = { rules: ['Required'], pointer: true, zero: '' };
    // 04b515c6d669 compares the pointer with nil; v1.0.1 compares the value with "".
    expect(bindingFailure(login, '', 'address')).toBeUndefined();
    expect(bindingFailure(login, '', 'value')).toEqual({ rule: 'Required', word: 'Required' });
    expect(bindingFailure({ rules: ['MaxSize(3)'], pointer: true, zero: '' }, 'abcd', 'address')).toBeUndefined();
    expect(bindingFailure({ rules: ['MaxSize(3)'], pointer: false, zero: '' }, 'abcd', 'address')).toEqual({ rule: 'MaxSize(3)', word: 'MaxSize' });
  });
});

const release = (spec: string): ServerInfo => parseServerSpec(spec) as ServerInfo;
/** Places made up from the path, so that a test can tell which value an error points at. */
const loadedOf = (config: unknown): Pick<LoadedConfig, 'config' | 'locate'> => ({
  config: config as LoadedConfig['config'],
  locate: (path: ConfigPath, atKey?: boolean): SourceLocation => ({ file: 'f.yaml', line: path.length, col: atKey ? 1 : 2 }),
});
const messages = (config: unknown, spec: string) => fieldRuleProblems(kinds, loadedOf(config), release(spec)).map((d) => d.message);

describe('the plan-time check of the release\'s field rules', () => {
  it("refuses an organisation's full name over 100 characters and a website that is no URL, naming the release and the tag's line", () => {
    const config = { version: 1, orgs: { acme: { full_name: 'x'.repeat(101), website: 'acme.example' } } };
    expect(messages(config, 'gitea@1.25.4')).toEqual([
      'full_name: must be at most 100 characters on Gitea 1.25.4 (modules/structs/org.go:53 CreateOrgOption.FullName: binding:"MaxSize(100)")',
      'website: must be an http or https URL on Gitea 1.25.4 (modules/structs/org.go:59 CreateOrgOption.Website: binding:"ValidUrl;MaxSize(255)")',
    ]);
    const [d] = fieldRuleProblems(kinds, loadedOf(config), release('gitea@1.25.4'));
    expect(d).toMatchObject({ path: ['orgs', 'acme', 'full_name'], file: 'f.yaml', line: 3, col: 1 });
    expect(messages({ version: 1, orgs: { acme: { full_name: 'x'.repeat(100), website: 'https://acme.example' } } }, 'gitea@1.25.4')).toEqual([]);
  });

  it("a team name of 31 characters: refused on Gitea 1.21 and Forgejo 7 at the name's key, taken from Gitea 1.22 and Forgejo 11", () => {
    const config = { version: 1, orgs: { acme: { teams: { ['t'.repeat(31)]: { permission: 'read' } } } } };
    expect(messages(config, 'gitea@1.21.11')).toEqual([`the name "${'t'.repeat(31)}" (sent as name): must be at most 30 characters on Gitea 1.21.11 (modules/structs/org_team.go:27 CreateTeamOption.Name: binding:"Required;AlphaDashDot;MaxSize(30)")`]);
    expect(fieldRuleProblems(kinds, loadedOf(config), release('forgejo@7.0.16'))[0]).toMatchObject({ path: ['orgs', 'acme', 'teams', 't'.repeat(31)], col: 1 });
    expect(messages(config, 'gitea@1.22.6')).toEqual([]);
    expect(messages(config, 'forgejo@11.0.15')).toEqual([]);
  });

  it("a hook's branch filter that is no glob, on every release; a hook name over 255 characters from Gitea 1.26 only", () => {
    const hook = (fields: Record<string, unknown>) => ({ version: 1, repos: { 'acme/widgets': { webhooks: [{ url: 'https://ci.example/hook', events: ['push'], ...fields }] } } });
    for (const spec of ['gitea@1.21.11', 'gitea@1.26.0', 'forgejo@15.0.3']) expect(messages(hook({ branch_filter: '{main' }), spec)[0], spec).toMatch(/^branch_filter: must be a valid glob pattern on /);
    expect(messages(hook({ branch_filter: '{main,release/*}' }), 'gitea@1.25.4')).toEqual([]);
    expect(messages(hook({ name: 'n'.repeat(256) }), 'gitea@1.26.0')[0]).toMatch(/^name: must be at most 255 characters on Gitea 1.26.0 \(modules\/structs\/hook.go:\d+ CreateHookOption.Name/);
  });

  it("a user's website, a label's empty color, a variable's empty value", () => {
    expect(messages({ version: 1, users: { alice: { email: 'a@example.com', website: 'not a url' } } }, 'gitea@1.25.4')[0]).toMatch(/^website: must be an http or https URL on Gitea 1.25.4 \(modules\/structs\/admin_user.go/);
    expect(messages({ version: 1, repos: { 'acme/w': { labels: { bug: { color: '' } } } } }, 'gitea@1.25.4')[0]).toMatch(/^color: must not be empty on Gitea 1.25.4 \(modules\/structs\/issue_label.go:\d+ CreateLabelOption.Color/);
    expect(messages({ version: 1, repos: { 'acme/w': { variables: { CI: { value: '' } } } } }, 'gitea@1.25.4')[0]).toMatch(/^value: must not be empty on Gitea 1.25.4 \(modules\/structs\/variable.go:12 CreateVariableOption.Value/);
  });

  it("a user's website on Gitea 1.21: refused whatever it is (its binder judges the pointer's address, go-gitea/gitea#30518); judged as a URL from 1.22", () => {
    const config = { version: 1, users: { alice: { email: 'a@example.com', website: 'https://alice.example' } } };
    const [d] = fieldRuleProblems(kinds, loadedOf(config), release('gitea@1.21.11'));
    expect(d).toMatchObject({ path: ['users', 'alice', 'website'], line: 3, col: 1 });
    expect(d!.message).toBe('website: cannot be set through the API of Gitea 1.21.11: its binder checks ValidUrl on the field\'s address, not its value, and refuses every value (modules/structs/admin_user.go:42 EditUserOption.Website: binding:"OmitEmpty;ValidUrl;MaxSize(255)")');
    expect(d!.hint).toContain('422 [Website]: Url');
    for (const spec of ['gitea@1.22.6', 'gitea@1.25.4', 'forgejo@7.0.16', 'forgejo@15.0.3']) expect(messages(config, spec), spec).toEqual([]);
    // A location over 50 characters: the 1.21 binder never sizes a pointer; 1.22 and later do.
    const location = { version: 1, users: { alice: { email: 'a@example.com', location: 'l'.repeat(51) } } };
    expect(messages(location, 'gitea@1.21.11')).toEqual([]);
    expect(messages(location, 'gitea@1.25.4')[0]).toMatch(/^location: must be at most 50 characters on Gitea 1.25.4/);
  });

  it("leaves a value holding an unset ${NAME} (validate offline) and values of fields sent under no struct's rules alone", () => {
    expect(messages({ version: 1, orgs: { acme: { website: '${SITE}' } } }, 'gitea@1.25.4')).toEqual([]);
    expect(messages({ version: 1, repos: { 'acme/w': { branch_protections: { main: { enable_push: true } } } } }, 'gitea@1.25.4')).toEqual([]);
    // A glob key names existing repositories (no name is sent); a label's key is sent whole, slashes and all.
    expect(messages({ version: 1, repos: { 'acme/*': { description: 'x' } } }, 'gitea@1.25.4')).toEqual([]);
    expect(messages({ version: 1, repos: { 'acme/w': { labels: { 'k/': { color: 'ff0000' } } } } }, 'gitea@1.25.4')).toEqual([]);
    expect(messages({ version: 1, repos: { 'acme/a b': {} } }, 'gitea@1.25.4')[0]).toMatch(/^the name "acme\/a b" \(sent as name\): must be only letters/);
  });

  it('joins the availability errors in file order', () => {
    const config = { version: 1, orgs: { acme: { full_name: 'x'.repeat(101) } }, actions: { runners: {} } };
    expect(releaseProblems(kinds, loadedOf(config), release('gitea@1.23.8')).map((d) => d.path)).toEqual([['actions', 'runners'], ['orgs', 'acme', 'full_name']]);
  });
});
