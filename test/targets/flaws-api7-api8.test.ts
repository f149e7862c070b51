import { flawMatrix } from './matrix';

flawMatrix(['API7', 'API8']);
