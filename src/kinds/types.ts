/** The kind contract lives in src/model (generic stages import it from there); re-exported for kinds. */
export type * from '../model/index.js';
