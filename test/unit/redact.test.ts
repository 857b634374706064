/**
 * Redaction survives encoding (issue 28, class 2): every credential and secret value is hidden in each form a
 * server or proxy may echo it in, and every Authorization/extraheader line whatever its value. The table is the
 * forms the hostile-server probe used (11 forms × 5 kinds of secret: 45 of the 55 were printed before).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { redactor } from '../../src/redact.js';
import { ENCODED_FORMS } from '../support/encoded-forms.js';

const HIDDEN = '(sensitive)';

/** The kinds of secret a run holds, each with a value shaped like the real thing. */
const SECRET_KINDS: Record<string, string> = {
  token: createHash('sha1').update('forgeform').digest('hex'),
  password: 'Pa55 w/ord?#&<grin>+"q"',
  'hook secret': 'whsec_9f8e7d6c5b4a3f2e1d0c',
  'authorization header': 'Bearer eyJhbGciOi.JIUzI1NiJ9-x_y',
  'mirror password': 'm1rr0r:p@ss/w%rd',
};

const FORMS = ENCODED_FORMS;

describe('redactor', () => {
  const mask = redactor(Object.values(SECRET_KINDS), HIDDEN);
  for (const [kind, value] of Object.entries(SECRET_KINDS))
    for (const [form, encode] of Object.entries(FORMS))
      it(`hides a ${kind} ${form}`, () => {
        const shown = encode(value);
        const out = mask(`422 Unprocessable Entity: refused {"body":"${shown}"} (end)`);
        expect(out).not.toContain(shown);
        expect(out).toContain(HIDDEN);
        expect(out).toMatch(/^422 Unprocessable Entity: refused \{"body":".*"\} \(end\)$/);
      });

  it('hides every Authorization and extraheader line, whatever its value', () => {
    const mask2 = redactor([], HIDDEN);
    expect(mask2('\textraheader = AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46Z2hz')).toBe(`\textraheader = ${HIDDEN}`);
    expect(mask2('Authorization: token 0123abcd')).toBe(`Authorization: ${HIDDEN}`);
    expect(mask2('{"authorization":"Bearer x.y.z","a":1}')).toBe(`{"authorization":"${HIDDEN}","a":1}`);
    // What forgeform prints itself is left alone.
    expect(mask2('  authorization_header = (sensitive)')).toBe('  authorization_header = (sensitive)');
    expect(mask2(`Authorization: ${HIDDEN}`)).toBe(`Authorization: ${HIDDEN}`);
  });

  it('leaves ordinary text alone: short values only in their own case, a prefix only from half the value', () => {
    const m = redactor(['abc', 'password1234567890'], HIDDEN);
    expect(m('ABC abc')).toBe(`ABC ${HIDDEN}`);
    expect(m('the password field')).toBe('the password field');
    // 18 characters: cut to 9 it is no longer the value, cut to 10 (MIN_PREFIX, and over half) it still is.
    expect(m('password1 and password12')).toBe(`password1 and ${HIDDEN}`);
  });
});
