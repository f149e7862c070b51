import { flawMatrix } from './matrix';

flawMatrix(['API4', 'API5', 'API6']);
