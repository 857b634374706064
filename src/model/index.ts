/**
 * The data model every stage shares: scopes, field specs, desired and current objects, changes, ops,
 * plans, and the contract a kind fulfils. It imports no stage, so kinds, plan, apply, render and
 * export can all depend on it without depending on each other.
 */
export type * from './field.js';
export type * from './object.js';
export type * from './plan.js';
export type * from './kind.js';
export * from './scope.js';
export * from './registry.js';
export * from './define.js';
export * from './requests.js';
export * from './intent.js';
export * from './server.js';
export * from '../diagnostic.js';
