/**
 * The readme templates `POST …/repos` accepts with auto_init (`repo_module.Readmes`): the built-in
 * options/readme (the one file `Default` at every Gitea and Forgejo tag read) and the administrator's
 * custom/options/readme, which the seed key `custom_templates: { readme: [names] }` stands for. LoadRepoConfig
 * lists both through the layered asset FS and sorts them with sort.Strings (modules/repository/init.go
 * v1.25.4 l.68–90); no API lists them. Names are file names: exact, case-sensitive.
 */
import type { SeedContext } from '../../core/domain.js';
import { obj, strings } from '../../core/seed-shape.js';
import type { SandboxState } from '../../core/state.js';

declare module '../../core/state.js' {
  interface StateData {
    /** The seed's `custom_templates.readme`: absent, none. */
    customReadmes?: string[];
  }
}

const BUILTIN_READMES = ['Default'];

/** `repo_module.Readmes`: built-in and custom, byte-sorted as Go's sort.Strings sorts them. */
export function readmeTemplates(state: SandboxState): string[] {
  return [...new Set([...BUILTIN_READMES, ...(state.data.customReadmes ?? [])])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Seed key `custom_templates: { readme: [names] }`: files under the server's custom/options/readme. */
export function loadCustomTemplates(cx: SeedContext): void {
  if (cx.top.custom_templates === undefined) return;
  const t = obj(cx.top.custom_templates, 'custom_templates', ['readme']);
  if (t.readme !== undefined) cx.state.data.customReadmes = strings(t.readme, 'custom_templates.readme');
}
