// Shared by the input-check tests.

export { INPUT_CHECKS } from './check-groups';


export const strongEnough = (confidence: string) => confidence === 'high' || confidence === 'medium';
