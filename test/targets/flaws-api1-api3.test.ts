import { flawMatrix } from './matrix';

flawMatrix(['API1', 'API2', 'API3']);
