// /api/endpoints*: an API's endpoints (anyone it is shared with) and their flags (owner or manage).

import type { Hono } from 'hono';
import { z } from 'zod';
import { APIS_MESSAGES } from '../../../shared/api-messages';
import { FLAGS } from '../../../shared/constants';
import type { Services } from '../../services';
import { requireApiAccess } from '../access';
import type { AppEnv } from '../env';
import { badRequest, notFound } from '../errors';
import { idField, parseBody } from '../input';
import { ok } from '../respond';

const listSchema = z.object({ api_id: idField('api_id') });

const flagSchema = z.object({
  api_id: idField('api_id'),
  endpoint_id: idField('endpoint_id'),
  flags: z.enum(FLAGS, { error: APIS_MESSAGES.unknownFlag }),
});

/** One flag on or off for all the API's endpoints, or for the listed ones (Configure Flags' bulk switch). */
const bulkSchema = z.object({
  api_id: idField('api_id'),
  flags: z.enum(FLAGS, { error: APIS_MESSAGES.unknownFlag }),
  on: z.boolean({ error: 'on must be true or false.' }),
  endpoint_ids: z.array(idField('endpoint_ids[]')).max(100_000, { error: APIS_MESSAGES.bulkEndpointsInvalid }).optional(),
});

export function registerEndpointRoutes(app: Hono<AppEnv>, s: Services): void {
  app.post('/api/endpoints/flags/bulk', async (c) => {
    const input = await parseBody(c, bulkSchema);
    const { api } = await requireApiAccess(s.repos, c.get('user').id, input.api_id, 'scan');
    const changed = await s.repos.endpoints.setFlagForMany(api.id, input.flags, input.on, input.endpoint_ids ?? null);
    if (changed === null) throw badRequest(APIS_MESSAGES.bulkEndpointsInvalid, 'endpoint_ids');
    return ok(c, APIS_MESSAGES.flagSetForMany(input.flags, input.on, changed), { changed });
  });

  app.post('/api/endpoints', async (c) => {
    const input = await parseBody(c, listSchema);
    const { api } = await requireApiAccess(s.repos, c.get('user').id, input.api_id, 'view');
    return ok(c, APIS_MESSAGES.endpointsListed, { endpoints: await s.repos.endpoints.listForApi(api.id) });
  });

  for (const action of ['add', 'remove'] as const) {
    app.post(`/api/endpoints/flags/${action}`, async (c) => {
      const input = await parseBody(c, flagSchema);
      const { api } = await requireApiAccess(s.repos, c.get('user').id, input.api_id, 'scan');
      const endpoint = await s.repos.endpoints.findInApi(api.id, input.endpoint_id);
      if (!endpoint) throw notFound(APIS_MESSAGES.endpointNotFound);
      if (action === 'add') await s.repos.endpoints.addFlag(endpoint.id, input.flags);
      else await s.repos.endpoints.removeFlag(endpoint.id, input.flags);
      const updated = await s.repos.endpoints.findInApi(api.id, endpoint.id);
      return ok(c, action === 'add' ? APIS_MESSAGES.flagAdded(input.flags) : APIS_MESSAGES.flagRemoved(input.flags), { endpoint: updated! });
    });
  }
}
