/** The committed per-release swagger tables (scripts/swagger-tables.mjs), by flavour; gitea@main has none. */
export { swaggerOf, type SwaggerTables } from '../../src/sandbox/flavours/swagger.js';
