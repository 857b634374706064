// The names each release refuses for Actions secrets and variables beyond the schema's rule
// (src/kinds/actions-values.ts; sources in test/conformance/actions-settings.test.ts).
import { describe, expect, it } from 'vitest';
import { refusedName } from '../../src/kinds/actions-values.js';
import type { ServerInfo } from '../../src/model/index.js';

const gitea = (version: string): ServerInfo => ({ flavour: 'gitea', version });
const forgejo = (version: string): ServerInfo => ({ flavour: 'forgejo', version });

describe('names a release refuses', () => {
  it.each([
    // [server, name, variable refused?, secret refused?]
    [gitea('1.22.6'), 'CIRCLE_TOKEN', true, false],
    [gitea('1.24.7'), 'CI', true, false],
    [gitea('1.25.4'), 'CIRCLE_TOKEN', false, false],
    [gitea('1.25.4'), 'CI', true, true],
    [forgejo('11.0.15'), 'CIRCLE_TOKEN', true, false],
    [forgejo('15.0.3'), 'CIRCLE_TOKEN', false, false],
    [forgejo('15.0.3'), 'CI', true, false],
    [forgejo('15.0.3'), 'FORGEJO_TOKEN', true, true],
    [forgejo('11.0.15'), 'FORGEJO_TOKEN', false, false],
    [gitea('1.26.0'), 'DEPLOY_KEY', false, false],
  ] as const)('%o %s', (server, name, variable, secret) => {
    expect(refusedName(name, 'variable', server) !== undefined).toBe(variable);
    expect(refusedName(name, 'secret', server) !== undefined).toBe(secret);
  });

  it('says which release refuses which name, and nothing without a known server', () => {
    expect(refusedName('CIRCLE_TOKEN', 'variable', gitea('1.24.7'))).toBe('variable name "CIRCLE_TOKEN": Gitea 1.24.7 refuses variable names starting with CI (400 from the server): choose another name');
    expect(refusedName('CI', 'variable', undefined)).toBeUndefined();
  });
});
