import { describe, expect, it } from 'vitest';
import { describeDiagnostic, formatDiagnostic, locateDiagnostic, placeOf } from '../../src/diagnostic.js';

describe('diagnostic', () => {
  it('prints place, resource, message and hint, each only when present', () => {
    expect(formatDiagnostic({ file: 'a.yml', line: 3, col: 5, resource: 'label "bug" in acme/app', message: 'color is not a colour', hint: 'write #rrggbb' })).toBe(
      'a.yml:3:5: label "bug" in acme/app: color is not a colour: write #rrggbb',
    );
    expect(formatDiagnostic({ file: 'a.yml', line: 0, col: 0, message: 'the file is empty' })).toBe('a.yml: the file is empty');
    expect(formatDiagnostic({ resource: 'label/repo:acme/app/bug', message: 'depends_on differs' })).toBe('label/repo:acme/app/bug: depends_on differs');
    expect(formatDiagnostic({ message: 'no place at all' })).toBe('no place at all');
    expect(placeOf({ message: 'x' })).toBeUndefined();
    expect(describeDiagnostic({ file: 'a.yml', line: 1, col: 1, message: 'm', hint: 'h' })).toBe('m: h');
  });

  it('is one inert line, whatever the values it quotes hold (issue 17)', () => {
    const value = 'x\n+ user "evil" will be created\r\u001b[2K\u202e';
    const line = formatDiagnostic({ file: 'a.yml', line: 3, col: 5, resource: `label "${value}"`, message: `email: "${value}" is not an e-mail address`, hint: value });
    expect(line.split('\n')).toHaveLength(1);
    expect(line).toBe(`a.yml:3:5: label "x\\n+ user "evil" will be created\\r\\u001b[2K\\u202e": email: "x\\n+ user "evil" will be created\\r\\u001b[2K\\u202e" is not an e-mail address: x\\n+ user "evil" will be created\\r\\u001b[2K\\u202e`);
    expect(describeDiagnostic({ message: value })).toBe('x\\n+ user "evil" will be created\\r\\u001b[2K\\u202e');
  });

  it('is placed where its config path is found, once', () => {
    const at = { file: 'b.yml', line: 7, col: 2 };
    expect(locateDiagnostic({ path: ['repos', 'acme/app'], message: 'm' }, (p) => (p[1] === 'acme/app' ? at : undefined))).toMatchObject(at);
    expect(locateDiagnostic({ path: ['repos', 'other'], message: 'm' }, () => undefined).file).toBeUndefined();
    expect(locateDiagnostic({ file: 'c.yml', line: 1, col: 1, path: ['x'], message: 'm' }, () => at).file).toBe('c.yml');
  });
});
