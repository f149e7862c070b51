import fs from 'node:fs';
import path from 'node:path';
import { it } from 'vitest';
import { main } from '../electron/cli';
import { startTarget } from '../test/targets';
it('x', async () => {
  const t = await startTarget({ mode: 'hardened' });
  const dir = fs.mkdtempSync('/tmp/hs-');
  const spec = path.join(dir, 'acme.yaml');
  fs.writeFileSync(spec, t.specText);
  await main(['scan', '--spec', spec, '--key1', t.users.alice.key, '--key2', t.users.bob.key, '--rps', '0', '--out', dir, '--fail-on', 'low', '--quiet']);
  const f = JSON.parse(fs.readFileSync(path.join(dir, 'findings.json'), 'utf8')).findings;
  for (const x of f) console.log('FINDING', x.severity, x.check_id, x.method, x.path, x.vulnerability_name);
  await t.close();
}, 300000);
