import { describe, expect, it } from 'vitest';
import { curlVariables, curlVariablesLine } from './curl-variables';

describe('curlVariables', () => {
  it('lists what the command reads and does not set itself, not what single quotes or comments hold', () => {
    const curl = [
      '# Set first: PORTCULLIS_KEY_1: key 1\'s token ($NOT_THIS)',
      `TOKEN=$(T="$PORTCULLIS_KEY_1" H='{"a":"$LITERAL"}' node -e 'x')`,
      `curl -i -X POST -H 'authorization: Bearer '"$TOKEN" --data-raw '{"password":"'"$PORTCULLIS_ALICE_PASSWORD"'"}' "$BASE"'/login'`,
    ].join('\n');
    expect(curlVariables(curl)).toEqual(['PORTCULLIS_KEY_1', 'PORTCULLIS_ALICE_PASSWORD', 'BASE']);
    expect(curlVariablesLine("curl -i -X GET 'http://x/'")).toBeNull();
    expect(curlVariablesLine(`curl -i -X GET -H 'x-api-key: '"$PORTCULLIS_KEY_2" 'http://x/'`)).toBe('Set first (export these shell variables, with your own values): PORTCULLIS_KEY_2.');
  });
});
