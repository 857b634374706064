// Deploy keys end to end: the built CLI against the sandbox (see test/e2e/helpers.ts and test/e2e/labels.test.ts).
import { describe, it } from 'vitest';

describe('deploy keys', () => {
  it.todo('plan shows the deploy key to create, change and delete, and apply makes them: a second plan is empty');
  it.todo('prune deletes undeclared deploy keys only with deploy_keys in policy.prune');
  it.todo('export writes them, and planning the export against the same server shows no changes');
});
