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
  const result = sentWriteOnly(kind, d, cur, changed, options);
  // A kind the server cannot edit: any change is a replacement, whose create sends every write-only field declared.
  if (!kind.replaceToEdit || !cur || result.replace || (changed.length === 0 && result.fields.length === 0)) return result;
  const specs = kind.fields.filter((f) => f.writeOnly && f.name in d.fields && !(f.name in cur.fields));
  return { fields: shownFields(d, specs), replace: true, notSent: [] };
}

/** Write-only fields as a change shows them: a secret as (sensitive). */
function shownFields(d: DesiredObject, send: FieldSpec[]): FieldChange[] {
  return send.map((f) => ({ path: f.name, after: f.sensitive ? shownSecret(d.fields[f.name]) : d.fields[f.name], writeOnly: true, ...(f.sensitive ? { sensitive: true } : {}) }));
}

function sentWriteOnly(kind: Kind, d: DesiredObject, cur: CurrentObject | undefined, changed: FieldChange[], options: KindOptions): { fields: FieldChange[]; replace: boolean; notSent: string[] } {
  // Those the server returned were compared (diffFields) like any field; those only a create takes ride with no edit.
  const specs = kind.fields.filter((f) => f.writeOnly && f.name in d.fields && !(cur && (f.name in cur.fields || f.createOnly)));
  if (!specs.length) return NONE;
  const shown = (send: FieldSpec[]) => shownFields(d, send);
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
