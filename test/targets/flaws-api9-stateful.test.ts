import { flawMatrix } from './matrix';

flawMatrix(['API9', 'API10', 'STATEFUL']);
