import { field, inEither, inForgejo, inGitea, objectSchema, serverFields } from '../fields.js';
import { actionsSection, descriptionField } from '../actions-values.js';
import type { ConfigEntry, EntrySpec, KindFeature, SchemaFragment } from '../../model/index.js';

/**
 * The variable routes (GET list, GET/POST/PUT/DELETE one, of repositories and organisations): Gitea 1.22
 * (#29520), Forgejo 8 (the same commit, 16696a42f5, after Forgejo 7 branched: Forgejo v8.0.0
 * routers/api/v1/api.go l.772-779 in addActionsRoutes, registered for repositories l.1035-1039 and organisations
 * l.1449-1453). Gitea 1.21 and Forgejo 7 have none (their swagger tables, src/sandbox/flavours/swagger/*.json).
 */
export const VARIABLE_ROUTES = inEither(inGitea('1.22'), inForgejo('8'));

export const features = {
  /**
   * The repository's list answers each variable with `data: ""` (the handler fills only owner_id, repo_id
   * and name: Gitea v1.22.6 routers/api/v1/repo/action.go:473-477, v1.23.8 :478-482; Forgejo v8.0.0 :476-480,
   * v9.0.0 and v10.0.0 :474-478, v11.0.15 :474-478, v12.0.0 :475-479, v13.0.0 :471-475): each value is read with
   * GET …/variables/{name}. Gitea 1.24 (v1.24.7 :496-502) and Forgejo 14 (v14.0.0 :471-476, v15.0.3 :472-477)
   * fill it. The organisation list has it in every release.
   */
  repoListWithoutValues: { availability: { gitea: { since: '1.22', until: '1.23' }, forgejo: { since: '8', until: '13' } } },
} satisfies Record<string, KindFeature>;

/** `util.ReserveLineBreakForTextarea`: the server stores CRLF as LF and keeps everything else (leading and trailing spaces too). */
export const storedValue = (v: unknown): string => (v === null || v === undefined ? '' : String(v)).replaceAll('\r\n', '\n');

/** A variable's config: its value and, where the release has it, its description. */
export const entries: EntrySpec[] = [
  field(
    { name: 'value', type: 'text', answer: 'string', normalize: storedValue },
    {
      title: 'Value',
      description: 'The value workflows read as ${{ vars.NAME }}. Required, not empty (the server refuses an empty value). Compared as the server stores it: line breaks CRLF become LF; spaces are kept.',
      type: 'string',
      minLength: 1,
    },
  ),
  descriptionField(
    'Text shown with the variable (Gitea 1.24 and newer; at most 4096 characters, the server cuts longer ones). Every edit of a variable sets its description, so forgeform sends the one the server has when it is not written.',
  ),
];

export const fields = serverFields(entries);

/** The variable definition; the sections that hold variables (repos.*.variables, orgs.*.variables) belong to their scopes' kinds. */
export const fragment: SchemaFragment = {
  definitions: {
    actions_variable: objectSchema({ title: 'Actions variable', description: 'An Actions variable, keyed by its name (upper-case). Its value is read back and compared.', required: ['value'] }, entries),
  },
};

/** A scope's `variables` section (repositories and organisations alike). */
export function variablesEntry(of: 'repository' | 'organisation'): ConfigEntry {
  return actionsSection('variable', of, '. Gitea 1.22+ or Forgejo 8+.');
}
