import { defineFlavourMatrix } from './flavour-matrix.js';

defineFlavourMatrix('gitea@1.21');
