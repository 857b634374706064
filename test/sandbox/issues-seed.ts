import type { SeedFile } from '../../src/sandbox/index.js';
import type { Harness } from './helpers.js';
export type { ApiIssue } from '../support/api-types.js';

/**
 * The seed of the issue, issue-label and issue-edit tests:
 * - root: site admin; bob: writer on every acme repository (team devs); alice: reader (public
 *   repositories) who authored issue #1; carol: no rights beyond public reads;
 * - acme/widgets: repository labels (three exclusive `priority/…`, a `dup` and a label named "5"),
 *   organisation labels `org-bug` and `dup`, milestones, projects and four issues;
 * - acme/gadgets, acme/secret (private) and alice/notes also carry `bug` issues; acme/attic is archived.
 */
export const ISSUE_SEED: SeedFile = {
  users: [
    { username: 'root', admin: true },
    { username: 'alice', token: 'alice-token' },
    { username: 'bob', token: 'bob-token' },
    { username: 'carol', token: 'carol-token' },
  ],
  orgs: [
    {
      name: 'acme',
      owners: ['root'],
      teams: [{ name: 'devs', permission: 'write', members: ['bob'] }],
      labels: [
        { name: 'org-bug', color: 'ee0701' },
        { name: 'dup', color: '000000' },
      ],
    },
  ],
  repos: [
    {
      name: 'acme/widgets',
      labels: [
        { name: 'bug', color: 'ee0701' },
        { name: 'feature', color: '00aabb' },
        { name: 'priority/high', color: 'ff0000', exclusive: true },
        { name: 'priority/low', color: '00ff00', exclusive: true },
        { name: 'priority/medium', color: 'ffff00', exclusive: true },
        { name: 'dup', color: '111111' },
        { name: '5', color: '555555' },
      ],
      milestones: [
        { title: 'v1', due_on: '2030-06-01T00:00:00Z' },
        { title: 'v2', due_on: '2030-01-01T00:00:00Z' },
        { title: 'someday' },
        { title: 'old', state: 'closed', due_on: '2020-01-01T00:00:00Z' },
      ],
      projects: [{ title: 'Roadmap', description: 'the plan' }, { title: 'Backlog' }],
      issues: [
        { title: 'Crash on start', body: 'boom', labels: ['bug'], author: 'alice' },
        { title: 'Old crash', labels: ['bug', 'org-bug'], state: 'closed', milestone: 'v1', assignees: ['bob'], due_date: '2030-02-03T12:00:00Z', projects: ['Roadmap'] },
        { title: 'Feature request', body: 'ping @alice', labels: ['feature', 'priority/low'], author: 'bob', milestone: 'v2' },
        { title: 'Docs', body: 'write them', ref: 'main', author: 'bob' },
      ],
    },
    { name: 'acme/gadgets', labels: [{ name: 'bug', color: 'ee0701' }], issues: [{ title: 'Gadget crash', labels: ['bug'] }] },
    { name: 'acme/secret', private: true, labels: [{ name: 'bug', color: 'ee0701' }], issues: [{ title: 'Secret crash', labels: ['bug'] }] },
    { name: 'acme/attic', archived: true, labels: [{ name: 'old', color: '123456' }], issues: [{ title: 'Attic' }] },
    { name: 'alice/notes', labels: [{ name: 'bug', color: 'ee0701' }], issues: [{ title: 'Note crash', labels: ['bug'] }] },
  ],
};

/** The id of a label by name: the repository's (`owner/repo`) or the organisation's (`org`). */
export async function labelId(h: Harness, where: string, name: string): Promise<number> {
  const path = where.includes('/') ? `repos/${where}/labels?limit=50` : `orgs/${where}/labels?limit=50`;
  const labels = (await h.call<{ id: number; name: string }[]>('GET', path)).json;
  const label = labels.find((l) => l.name === name);
  if (!label) throw new Error(`no label ${name} in ${where}`);
  return label.id;
}

