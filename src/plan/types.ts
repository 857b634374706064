/** The plan's data model lives in src/model; re-exported here for the modules that import it from plan. */
export type * from '../model/plan.js';
