import { defineFlavourMatrix } from './flavour-matrix.js';

defineFlavourMatrix('forgejo@7');
