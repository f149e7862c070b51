// The trivial loopback target of the engine benchmark, in its own process: JSON for requests with
// credentials, 401 without (so the API2 check takes its longer path), nosniff and no-store set.
import http from 'node:http';

const body = JSON.stringify({ id: 1, name: 'bench', items: [1, 2, 3] });
const denied = JSON.stringify({ error: 'unauthorized' });
const server = http.createServer((req, res) => {
  req.resume();
  const ok = typeof req.headers.authorization === 'string' && req.headers.authorization.startsWith('Bearer bench-key-');
  res.writeHead(ok ? (req.method === 'POST' ? 201 : 200) : 401, {
    'content-type': 'application/json',
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
  });
  res.end(ok ? body : denied);
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => process.send?.({ port: server.address().port }));
process.on('disconnect', () => process.exit(0));
