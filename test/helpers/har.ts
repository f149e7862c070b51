// HAR checks for tests: the file against har-schema (the HAR 1.2 reference schema, through
// har-validator), answering the schema's complaints in words ([] when it is valid).

import { har as validateHar, type HarSchemaError } from 'har-validator';

export async function harSchemaErrors(har: unknown): Promise<string[]> {
  try {
    await validateHar(har);
    return [];
  } catch (err) {
    const errors = (err as { errors?: HarSchemaError[] }).errors;
    if (!errors) throw err;
    return errors.map((e) => `${e.dataPath ?? ''} ${e.message ?? ''}`.trim());
  }
}
