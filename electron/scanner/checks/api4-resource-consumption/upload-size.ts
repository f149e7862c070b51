// API4:2023 Unrestricted Resource Consumption: an upload route that stores a file larger than it documents
// it takes — or, where it documents no limit, a file of a few megabytes, far above what most upload routes
// need. Sent once, as plain text, never more than MAX_PROBE_BYTES.

import { defineCheck, describeEndpoint } from '../common/helpers';
import { OWASP_API4 } from '../common/references';
import { mayUpload, sendUpload, uploadFields, withAbridgedFile } from '../common/uploads';

/** The most the probe ever sends: enough to pass common limits (1-2 MB) by far, too little to harm a server. */
export const MAX_PROBE_BYTES = 3 * 1024 * 1024;
/** With no documented limit: a file this size accepted says only that no small limit is enforced (informational). */
const UNDOCUMENTED_CVSS = 'CVSS:3.1/AV:N/AC:H/PR:L/UI:N/S:U/C:N/I:N/A:N';

function probeSize(maxBytes: number | null): number {
  if (maxBytes === null) return MAX_PROBE_BYTES;
  return Math.min(MAX_PROBE_BYTES, Math.max(maxBytes + 1024, Math.ceil(maxBytes * 1.5)));
}

export const uploadSize = defineCheck({
  id: 'api4-upload-size',
  title: 'Upload size limit not enforced',
  flag: 'URC',
  owasp: 'API4:2023',
  cwe: 'CWE-400',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:N/I:N/A:L',
  kind: 'active',
  safety: 'intrusive',
  scope: 'endpoint',
  budget: 1,
  description:
    'Uploads, to operations with a multipart file part, one plain-text file (portcullis-<random>.txt) larger than the maximum the ' +
    'operation documents (its maxLength or "max N MB" in its description: half as large again, at least 1 KB over), or, when it ' +
    `documents none, of ${MAX_PROBE_BYTES / 1024 / 1024} MB. Finding when it is stored (2xx): medium above a documented maximum ` +
    '(the limit is only the client\'s), informational without one.',
  coverage: `Never more than ${MAX_PROBE_BYTES / 1024 / 1024} MB, once per operation; a limit above that is not tested. Uploads are writes: creates only, unless \`writes: existing\`.`,
  remediation:
    'Enforce the upload size limit on the server (the framework\'s body and multipart limits, per route), before the file is stored or ' +
    'parsed, and document it; limit how many files a client may store.',
  references: [OWASP_API4, 'https://cwe.mitre.org/data/definitions/400.html', 'https://cheatsheetseries.owasp.org/cheatsheets/File_Upload_Cheat_Sheet.html'],
  appliesTo: (e) => e.flags.includes('URC') && uploadFields(e).length > 0,
  async *run(ctx) {
    const ep = ctx.endpoint;
    if (!mayUpload(ctx, ep)) return ctx.holdBack('uploads to an operation that changes an existing object need `writes: existing`');
    const field = uploadFields(ep)[0]!;
    const size = probeSize(field.maxBytes);
    const filename = `portcullis-${ctx.random.hex(4)}.txt`;
    const line = 'Portcullis upload-size probe: plain text, safe to delete.\n';
    const content = line.repeat(Math.ceil(size / line.length)).slice(0, size);
    const sent = await sendUpload(ctx, ep, { field: field.name, filename, contentType: 'text/plain', content });
    if (!sent?.ok) return;
    const ex = withAbridgedFile(sent, content);
    const kb = (n: number) => `${Math.round(n / 1024)} KB`;
    yield {
      parameter: field.name,
      cvss: field.maxBytes === null ? UNDOCUMENTED_CVSS : undefined,
      description:
        `${describeEndpoint(ep)} stored a ${kb(size)} file (HTTP ${ex.status}). ` +
        (field.maxBytes !== null
          ? `The operation documents a maximum of ${kb(field.maxBytes)}: the limit is not enforced on the server, so any client can store files as large as it likes.`
          : 'The operation documents no maximum, and no limit below that size is enforced.'),
      notes: [`The file part: name="${field.name}"; filename="${filename}"; ${size} bytes of text (abridged in the request shown).`],
      exchanges: [{ label: `Upload of ${kb(size)}`, exchange: ex }],
      reproduce: ex,
    };
  },
});
