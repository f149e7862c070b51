// Greeting-card previews, with a template feature built the quick way: the message is run as a
// JavaScript template literal so that ${name} works (template-injection). The literal runs in a fresh
// context with no string code generation and a time limit: the flaw is the input evaluated, not an
// escape from the test process. Hardened: only ${name} is replaced, as text.

import vm from 'node:vm';
import type { Ctx, TargetState } from '../context';
import { json, type Router, ValidationError } from '../http';

export function registerCards(r: Router<Ctx>, t: TargetState): void {
  r.post('/api/v2/cards/preview', async (ctx) => {
    const me = await ctx.user();
    const body = ctx.body() as { message?: unknown } | undefined;
    const message = body?.message;
    if (typeof message !== 'string' || !message || message.length > 300) throw new ValidationError([{ field: 'message', message: 'must be a string of 1 to 300 characters' }]);
    let text: string;
    if (t.has('template-injection')) {
      const context = vm.createContext({ name: me.username }, { codeGeneration: { strings: false, wasm: false } });
      try {
        text = String(vm.runInContext(`\`${message.replace(/`/g, '\\`')}\``, context, { timeout: 1000 }));
      } catch {
        return json(422, { error: 'invalid_template', message: 'The message could not be rendered.' });
      }
    } else {
      text = message.split('${name}').join(me.username);
    }
    return json(200, { preview: text });
  });
}
