import { describe, expect, it } from 'vitest';
import { Exchange } from '../../http/exchange';
import { errorSignature, sqlSignature } from './verbose-errors';

function answer(body: string, contentType = 'application/json'): Exchange {
  return new Exchange(
    1,
    { method: 'POST', url: 'http://127.0.0.1/x', headers: {}, body: null, auth: { kind: 'none' }, placements: [] },
    { status: 500, headers: { 'content-type': contentType }, body, bytes: body.length, truncated: false },
    null,
    1,
  );
}

describe('error signatures (shapes, not "any 500")', () => {
  it.each([
    [
      'Node.js / JavaScript stack trace',
      JSON.stringify({ error: 'SyntaxError', stack: 'SyntaxError: Unexpected token } in JSON at position 10\n    at JSON.parse (<anonymous>)\n    at parse (/app/node_modules/body-parser/lib/types/json.js:89:19)' }),
      'application/json',
    ],
    [
      'Node.js / JavaScript stack trace',
      '<!DOCTYPE html><html><head><title>Error</title></head><body><pre>TypeError: Cannot read properties of undefined (reading &#39;id&#39;)<br> &nbsp; &nbsp;at /app/routes/users.js:14:22<br> &nbsp; &nbsp;at Layer.handle [as handle_request] (/app/node_modules/express/lib/router/layer.js:95:5)</pre></body></html>',
      'text/html',
    ],
    [
      'Java stack trace',
      JSON.stringify({ status: 500, error: 'Internal Server Error', trace: 'java.lang.NullPointerException\n\tat com.acme.web.UserController.get(UserController.java:42)\n\tat jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)' }),
      'application/json',
    ],
    ['Python traceback', 'Traceback (most recent call last):\n  File "/app/app.py", line 10, in handler\n    x = int(v)\nValueError: invalid literal', 'text/plain'],
    ['Django debug page', '<html><body><p>You&#39;re seeing this error because you have <code>DEBUG = True</code> in your Django settings file.</p></body></html>', 'text/html'],
    ['Werkzeug debugger', '<html><title>ValueError // Werkzeug Debugger</title></html>', 'text/html'],
    ['.NET stack trace', 'System.FormatException: Input string was not in a correct format.\n   at Acme.Controllers.UsersController.Get(String id) in C:\\src\\Acme\\UsersController.cs:line 42', 'text/plain'],
    ['PHP error', '<br />\n<b>Fatal error</b>:  Uncaught TypeError: count() in /var/www/html/api.php:12\nStack trace:\n#0 {main}\n  thrown in <b>/var/www/html/api.php</b> on line <b>12</b><br />', 'text/html'],
    ['Ruby stack trace', "app/controllers/users_controller.rb:10:in `show'\napp/controllers/application_controller.rb:5:in `wrap'", 'text/plain'],
    ['Go panic', 'panic: runtime error: index out of range [3] with length 2\n\ngoroutine 18 [running]:\nmain.handler()\n\t/app/main.go:10 +0x1d', 'text/plain'],
  ])('recognises a %s', (what, body, type) => {
    expect(errorSignature(answer(body, type))?.what).toBe(what);
  });

  it.each([
    ['MySQL / MariaDB error', "You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near ''1''' at line 1"],
    ['PostgreSQL error', 'ERROR:  unterminated quoted string at or near "\'1" LINE 1: SELECT * FROM users WHERE name = \'1'],
    ['SQLite error', JSON.stringify({ error: 'database_error', message: 'SQLITE_ERROR: near "x": syntax error' })],
    ['Microsoft SQL Server error', "Unclosed quotation mark after the character string '1'."],
    ['Oracle error', 'ORA-01756: quoted string not properly terminated'],
    ['SQL error', JSON.stringify({ name: 'SequelizeDatabaseError', message: 'SequelizeDatabaseError: SQLITE_ERROR: unrecognized token: "\'"' })],
  ])('recognises a %s', (what, body) => {
    const sig = sqlSignature(answer(body));
    expect(sig).not.toBeNull();
    // The generic ORM names may be reported by the driver's own signature first.
    if (what !== 'SQL error') expect(sig!.what).toBe(what);
  });

  it.each([
    JSON.stringify({ error: 'invalid_json', message: 'The request body is not valid JSON.' }),
    JSON.stringify({ error: 'validation', errors: [{ field: 'title', message: 'must be a string' }] }),
    JSON.stringify({ message: 'Meet at 10:30 at the lobby', note: 'at noon (room 2:3:4)' }),
    JSON.stringify({ error: 'Internal Server Error', message: 'Something went wrong.' }),
    '<html><body><h1>404 Not Found</h1><p>Traceback is a word in this page.</p></body></html>',
    JSON.stringify({ error: 'conflict', message: 'SQL is not your friend; syntax matters' }),
  ])('stays silent on an ordinary error answer: %s', (body) => {
    expect(errorSignature(answer(body, body.startsWith('<') ? 'text/html' : 'application/json'))).toBeNull();
  });
});
