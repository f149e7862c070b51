import { describe, expect, it } from 'vitest';
import { parseEndpointLines } from './manual-api';

describe('parseEndpointLines', () => {
  it('reads method, path and summary, skipping blank lines', () => {
    expect(parseEndpointLines('get /users/{id} A user\n\n  DELETE /users/{id}  \n')).toEqual({
      endpoints: [
        { method: 'GET', path: '/users/{id}', summary: 'A user' },
        { method: 'DELETE', path: '/users/{id}' },
      ],
      badLine: null,
    });
  });

  it('names the first line it cannot read', () => {
    expect(parseEndpointLines('GET /a\n/b GET\nPOST /c').badLine).toBe(2);
    expect(parseEndpointLines('GET users').badLine).toBe(1);
  });
});
