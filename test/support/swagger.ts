/** The committed per-release swagger tables (scripts/swagger-tables.mjs), by flavour; gitea@main has none. */
import { existsSync, readFileSync } from 'node:fs';
import type { Flavor } from '../../src/sandbox/flavors/flavor.js';

export interface SwaggerTables {
  release: string;
  source: string;
  requests: string[];
  routes: string[];
  query: Record<string, string[]>;
  definitions: Record<string, string[]>;
}

const cache = new Map<string, SwaggerTables | undefined>();

export function swaggerOf(flavor: Flavor): SwaggerTables | undefined {
  if (!cache.has(flavor.name)) {
    const file = new URL(`../../src/sandbox/flavors/swagger/${flavor.name}.json`, import.meta.url);
    cache.set(flavor.name, existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as SwaggerTables) : undefined);
  }
  return cache.get(flavor.name);
}
