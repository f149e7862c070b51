// The part of har-validator (which ships no types) the tests use: the whole-HAR check against
// har-schema, the HAR 1.2 reference schema. It resolves with the HAR, or rejects with the schema errors.
declare module 'har-validator' {
  export interface HarSchemaError {
    dataPath?: string;
    message?: string;
  }
  export function har(data: unknown): Promise<unknown>;
}
