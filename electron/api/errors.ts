// Errors a handler throws to answer with a status and an envelope; one onError maps them.

import { SERVER_MESSAGES } from '../../shared/messages';
import type { ValidationError } from '../../shared/validation';

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 500 | 503;

export class ApiError extends Error {
  constructor(
    readonly status: ErrorStatus,
    message: string,
    readonly errors?: ValidationError[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** 400 with the field errors; the envelope's message is the first error's text. */
export function validationError(errors: ValidationError[]): ApiError {
  return new ApiError(400, errors[0]?.message ?? SERVER_MESSAGES.validationFailed, errors);
}

export const badRequest = (message: string, field?: string): ApiError =>
  new ApiError(400, message, field ? [{ field, message }] : undefined);
export const unauthorized = (message: string = SERVER_MESSAGES.notAuthenticated): ApiError => new ApiError(401, message);
export const forbidden = (message: string = SERVER_MESSAGES.forbidden): ApiError => new ApiError(403, message);
export const notFound = (message: string = SERVER_MESSAGES.notFound): ApiError => new ApiError(404, message);
export const conflict = (message: string, field?: string): ApiError =>
  new ApiError(409, message, field ? [{ field, message }] : undefined);
export const tooManyRequests = (retryAfterSeconds: number, message: string = SERVER_MESSAGES.tooManyAttempts): ApiError =>
  new ApiError(429, message, undefined, { 'Retry-After': String(Math.max(1, retryAfterSeconds)) });
export const serviceUnavailable = (retryAfterSeconds: number, message: string = SERVER_MESSAGES.busy): ApiError =>
  new ApiError(503, message, undefined, { 'Retry-After': String(Math.max(1, retryAfterSeconds)) });
