/** Query-string booleans as Gitea's and Forgejo's `services/context/base.go` read them. */

const GO_TRUE = ['1', 't', 'T', 'TRUE', 'true', 'True'];
const GO_FALSE = ['0', 'f', 'F', 'FALSE', 'false', 'False'];

/** `ctx.FormBool`: Go's `strconv.ParseBool`, plus `on`; anything else is false. */
export function formBool(query: URLSearchParams, key: string): boolean {
  const v = query.get(key) ?? '';
  return GO_TRUE.includes(v) || v.toLowerCase() === 'on';
}

/** Go's `strconv.ParseBool`: undefined where Go answers an error. */
export function parseGoBool(v: string): boolean | undefined {
  if (GO_TRUE.includes(v)) return true;
  if (GO_FALSE.includes(v)) return false;
  return undefined;
}

/** `ctx.FormOptionalBool`: `strconv.ParseBool`, absent or invalid = no filter. */
export function formOptionalBool(query: URLSearchParams, key: string): boolean | undefined {
  return parseGoBool(query.get(key) ?? '');
}

/** `strconv.ParseBool` alone (without the `on` of {@link formBool}): false for anything it does not read as true. */
export function formGoBool(query: URLSearchParams, key: string): boolean {
  return parseGoBool(query.get(key) ?? '') === true;
}
