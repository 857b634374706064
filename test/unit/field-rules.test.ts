/**
 * The per-release field rules (src/releases/field-rules/*.json, read by scripts/field-rules.mjs from
 * each tag's `modules/structs/*.go`): the reader, a few facts checked against the tags by hand, and
 * the sandbox's binder playing them on released flavours.
 */
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a script without types
import { fieldRulesOf } from '../../scripts/field-rules.mjs';
import { FIELD_RULE_TABLES, fieldRuleTable, fieldRuleTableOf, structRules } from '../../src/releases/field-rules.js';
import { ruleFailure } from '../../src/releases/rules.js';
import { bindBody } from '../../src/sandbox/http/binding.js';
import { optionFor } from '../../src/sandbox/flavours/options.js';
import { FLAVOURS } from '../../src/sandbox/flavours/flavour.js';
import { CreateTeamOption } from '../../src/sandbox/domains/teams/options.js';
import { CreateOrgOption } from '../../src/sandbox/domains/orgs/options.js';
import { CreateRepoOption } from '../../src/sandbox/domains/repos/options.js';

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
