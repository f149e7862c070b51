// The validation-message reader over error bodies as real frameworks shape them.

import { describe, expect, it } from 'vitest';
import { enumValues, validationHints, type FieldHint } from './validation-hints';

const hint = (hints: FieldHint[], field: string) => hints.find((h) => h.path.join('.') === field);

describe('validationHints', () => {
  it('reads express-validator (v6 param, v7 path) and a missing field answered "Invalid value"', () => {
    const v7 = validationHints({
      errors: [
        { type: 'field', value: '', msg: 'Invalid value', path: 'email', location: 'body' },
        { type: 'field', value: 'x', msg: 'priority must be one of low, normal, high', path: 'priority', location: 'body' },
      ],
    });
    expect(hint(v7, 'email')).toEqual({ path: ['email'], kind: 'required' });
    expect(hint(v7, 'priority')).toEqual({ path: ['priority'], kind: 'enum', values: ['low', 'normal', 'high'] });
    const v6 = validationHints({ errors: [{ value: 'abc', msg: 'Must be a valid e-mail address', param: 'contact', location: 'body' }] });
    expect(v6).toEqual([{ path: ['contact'], kind: 'format', format: 'email' }]);
  });

  it('reads Joi details (context.valids) and a Boom message', () => {
    const joi = validationHints({
      error: {
        details: [
          { message: '"priority" must be one of [low, normal, high]', path: ['priority'], type: 'any.only', context: { valids: ['low', 'normal', 'high'], label: 'priority', key: 'priority' } },
          { message: '"dueDate" must be in ISO 8601 date format', path: ['dueDate'], type: 'date.format', context: { label: 'dueDate', key: 'dueDate' } },
        ],
      },
    });
    expect(hint(joi, 'priority')?.values).toEqual(['low', 'normal', 'high']);
    expect(hint(joi, 'dueDate')).toMatchObject({ kind: 'format', format: 'date-time' });
    expect(validationHints({ statusCode: 400, error: 'Bad Request', message: '"email" is required', validation: { source: 'payload', keys: ['email'] } })).toEqual([{ path: ['email'], kind: 'required' }]);
  });

  it('reads zod issues (v3 and v4) and flatten()', () => {
    const v3 = validationHints({
      success: false,
      error: {
        issues: [
          { code: 'invalid_type', expected: 'string', received: 'undefined', path: ['email'], message: 'Required' },
          { code: 'invalid_enum_value', options: ['low', 'high'], path: ['priority'], message: "Invalid enum value. Expected 'low' | 'high', received 'x'" },
          { validation: 'email', code: 'invalid_string', message: 'Invalid email', path: ['contact'] },
          { code: 'invalid_type', expected: 'string', received: 'undefined', path: ['address', 'city'], message: 'Required' },
        ],
      },
    });
    expect(hint(v3, 'email')?.kind).toBe('required');
    expect(hint(v3, 'priority')?.values).toEqual(['low', 'high']);
    expect(hint(v3, 'contact')).toMatchObject({ kind: 'format', format: 'email' });
    expect(hint(v3, 'address.city')?.kind).toBe('required');
    const v4 = validationHints([
      { expected: 'string', code: 'invalid_type', path: ['title'], message: 'Invalid input: expected string, received undefined' },
      { code: 'invalid_value', values: ['open', 'closed'], path: ['state'], message: 'Invalid option: expected one of "open"|"closed"' },
      { code: 'invalid_format', format: 'uuid', path: ['ref'], message: 'Invalid UUID' },
    ]);
    expect(v4).toEqual([
      { path: ['title'], kind: 'required' },
      { path: ['state'], kind: 'enum', values: ['open', 'closed'] },
      { path: ['ref'], kind: 'format', format: 'uuid' },
    ]);
    const flat = validationHints({ formErrors: [], fieldErrors: { email: ['Required'], state: ["Invalid enum value. Expected 'open' | 'closed', received 'x'"] } });
    expect(flat).toEqual([
      { path: ['email'], kind: 'required' },
      { path: ['state'], kind: 'enum', values: ['open', 'closed'] },
    ]);
  });

  it('reads Laravel and Rails errors maps', () => {
    const laravel = validationHints({
      message: 'The email field is required. (and 2 more errors)',
      errors: { email: ['The email field is required.'], due_date: ['The due date field must be a valid date.'], status: ['The selected status is invalid.'] },
    });
    expect(hint(laravel, 'email')?.kind).toBe('required');
    expect(hint(laravel, 'due_date')).toMatchObject({ kind: 'format', format: 'date' });
    // "The selected status is invalid" names no allowed value: nothing to act on.
    expect(hint(laravel, 'status')).toBeUndefined();
    expect(validationHints({ email: ["can't be blank"], kind: ['is not included in the list'] })).toEqual([{ path: ['email'], kind: 'required' }]);
  });

  it('reads Django REST field lists', () => {
    const drf = validationHints({
      email: ['This field is required.'],
      phone: ['Enter a valid phone number.'],
      due: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'],
      non_field_errors: ['Unable to process.'],
    });
    expect(drf).toEqual([
      { path: ['email'], kind: 'required' },
      { path: ['phone'], kind: 'format', format: 'phone' },
      { path: ['due'], kind: 'format', format: 'date' },
    ]);
  });

  it('reads pydantic v1 and v2 (loc without its location)', () => {
    const v2 = validationHints({
      detail: [
        { type: 'missing', loc: ['body', 'email'], msg: 'Field required', input: { title: 'x', name: 'y' } },
        { type: 'enum', loc: ['body', 'priority'], msg: "Input should be 'low', 'normal' or 'high'", input: 'x', ctx: { expected: "'low', 'normal' or 'high'" } },
      ],
    });
    expect(v2).toEqual([
      { path: ['email'], kind: 'required' },
      { path: ['priority'], kind: 'enum', values: ['low', 'normal', 'high'] },
    ]);
    const v1 = validationHints({
      detail: [
        { loc: ['body', 'email'], msg: 'field required', type: 'value_error.missing' },
        { loc: ['body', 'priority'], msg: "value is not a valid enumeration member; permitted: 'low', 'high'", type: 'type_error.enum', ctx: { enum_values: ['low', 'high'] } },
      ],
    });
    expect(hint(v1, 'email')?.kind).toBe('required');
    expect(hint(v1, 'priority')?.values).toEqual(['low', 'high']);
  });

  it('reads class-validator, Spring, Sequelize and JSON:API', () => {
    const nest = validationHints({ statusCode: 400, message: ['email must be an email', 'priority must be one of the following values: low, normal, high'], error: 'Bad Request' });
    expect(nest).toEqual([
      { path: ['email'], kind: 'format', format: 'email' },
      { path: ['priority'], kind: 'enum', values: ['low', 'normal', 'high'] },
    ]);
    expect(validationHints({ status: 400, errors: [{ field: 'email', rejectedValue: null, defaultMessage: 'must not be null', code: 'NotNull' }] })).toEqual([{ path: ['email'], kind: 'required' }]);
    expect(validationHints({ message: 'notNull Violation: Feedback.comment cannot be null', errors: [{ message: 'Feedback.comment cannot be null', type: 'notNull Violation', path: 'comment', value: null }] })).toEqual([
      { path: ['comment'], kind: 'required' },
    ]);
    expect(validationHints({ errors: [{ status: '422', source: { pointer: '/data/attributes/email' }, detail: 'must be a valid email' }] })).toEqual([{ path: ['email'], kind: 'format', format: 'email' }]);
    // Sequelize's validator errors: the validator's name says the form.
    expect(
      validationHints({
        name: 'SequelizeValidationError',
        errors: [
          { message: 'Validation isEmail on email failed', type: 'Validation error', path: 'email', value: 'x', validatorKey: 'isEmail' },
          { message: 'Validation isUUID on ref failed', type: 'Validation error', path: 'ref', value: 'x', validatorKey: 'isUUID' },
        ],
      }),
    ).toEqual([
      { path: ['email'], kind: 'format', format: 'email' },
      { path: ['ref'], kind: 'format', format: 'uuid' },
    ]);
  });

  it('reads plain sentences, in JSON strings and in text', () => {
    expect(validationHints({ error: 'email is required' })).toEqual([{ path: ['email'], kind: 'required' }]);
    expect(validationHints({ message: 'Missing required field: email' })).toEqual([{ path: ['email'], kind: 'required' }]);
    expect(validationHints({ error: 'priority must be one of a, b' })).toEqual([{ path: ['priority'], kind: 'enum', values: ['a', 'b'] }]);
    expect(validationHints(undefined, 'invalid date format for birthday')).toEqual([{ path: ['birthday'], kind: 'format', format: 'date' }]);
    expect(validationHints(undefined, 'invalid date format')).toEqual([{ path: [], kind: 'format', format: 'date' }]);
    expect(validationHints('Field "title" is required')).toEqual([{ path: ['title'], kind: 'required' }]);
  });

  it('finds nothing in errors that are not about fields', () => {
    expect(validationHints({ error: 'Bad Request' })).toEqual([]);
    expect(validationHints({ message: 'Unauthorized' })).toEqual([]);
    expect(validationHints({ error: 'Internal server error', stack: 'at x (y.js:1:1)' })).toEqual([]);
    expect(validationHints({ id: 3, name: 'portcullis', title: 'created' })).toEqual([]);
    expect(validationHints(undefined, '<html><body>400 Bad Request</body></html>')).toEqual([]);
  });
});

describe('enumValues', () => {
  it('reads the allowed values in the common wordings', () => {
    expect(enumValues('must be one of [low, normal, high]')).toEqual(['low', 'normal', 'high']);
    expect(enumValues("permitted: 'a', 'b'")).toEqual(['a', 'b']);
    expect(enumValues('Value must be either "yes" or "no"')).toEqual(['yes', 'no']);
    expect(enumValues("Input should be 'x' or 'y'")).toEqual(['x', 'y']);
  });
});
