import type { CurrentObject, DesiredObject, FieldChange, FieldSpec, Kind, KindOptions } from '../model/index.js';
import { shownSecret } from './diff.js';

/** Nothing write-only declared (most objects): one shared answer, not three new arrays per object. */
const NONE: { fields: FieldChange[]; replace: boolean; notSent: string[] } = Object.freeze({ fields: Object.freeze([]), replace: false, notSent: Object.freeze([]) }) as never;

/**
 * Write-only fields cannot be compared. They ride along with any other edit of the object; with
 * --sync-write-only they are sent to every declared object; with --rotate-secrets the sensitive ones
 * are sent too, or the object is replaced when the kind cannot change them in place. A change carries
 * the value it sends (a secret is rendered as (sensitive) and saved as a reference): apply builds the
 * request from it. Secrets declared but not sent are named (notSent), so that they are not silently ignored.
 */
export function writeOnlyFields(kind: Kind, d: DesiredObject, cur: CurrentObject | undefined, changed: FieldChange[], options: KindOptions): { fields: FieldChange[]; replace: boolean; notSent: string[] } {
  // Those the server returned were compared (diffFields) like any field.
  const specs = kind.fields.filter((f) => f.writeOnly && f.name in d.fields && !(cur && f.name in cur.fields));
  if (!specs.length) return NONE;
  const shown = (send: FieldSpec[]) => send.map((f) => ({ path: f.name, after: f.sensitive ? shownSecret(d.fields[f.name]) : d.fields[f.name], writeOnly: true, ...(f.sensitive ? { sensitive: true } : {}) }));
  // A create (and the create half of a replacement) sends them all: the plan shows them.
  if (!cur) return { fields: shown(specs), replace: false, notSent: [] };
  const plain = specs.filter((f) => !f.sensitive);
  const secret = specs.filter((f) => f.sensitive);
  const rotate = Boolean(options.rotateSecrets) && secret.length > 0;
  if (rotate && kind.replaceToRotate) return { fields: shown(specs), replace: true, notSent: [] };
  const edits = changed.length > 0 || Boolean(options.syncWriteOnly);
  const sendSecret = secret.filter((f) => rotate || (edits && f.resendOnEdit));
  const send = [...(changed.length || options.syncWriteOnly || rotate ? plain : []), ...sendSecret];
  return { fields: shown(send), replace: false, notSent: secret.filter((f) => !sendSecret.includes(f)).map((f) => f.name) };
}
