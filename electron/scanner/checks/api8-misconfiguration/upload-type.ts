// API8:2023 Security Misconfiguration: an upload route that stores a file of a type it should refuse — an
// executable's name and media type where the operation documents other types, or documents none. The
// file the scan sends is plain text under that name: nothing that runs where it lands or when served back.

import { defineCheck, describeEndpoint } from '../common/helpers';
import { OWASP_API8 } from '../common/references';
import { mayUpload, sendUpload, uploadFields } from '../common/uploads';

/** What the probe file claims to be; its content is a sentence of text. */
const PROBE_TYPE = { ext: '.exe', contentType: 'application/x-msdownload' };
const PROBE_CONTENT = 'Portcullis upload probe: plain text under an executable name, not a program. Safe to delete.\n';
/** Undocumented accepted types: a weakness, not a proven flaw (low). */
const UNDOCUMENTED_CVSS = 'CVSS:3.1/AV:N/AC:H/PR:L/UI:R/S:U/C:N/I:L/A:N';

export const uploadType = defineCheck({
  id: 'api8-upload-type',
  title: 'Upload accepts a file type it should refuse',
  flag: 'URC',
  owasp: 'API8:2023',
  cwe: 'CWE-434',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:R/S:U/C:N/I:L/A:N',
  kind: 'active',
  safety: 'intrusive',
  scope: 'endpoint',
  budget: 1,
  description:
    'Uploads, to operations with a multipart file part, one file named portcullis-<random>.exe with the media type ' +
    'application/x-msdownload and a line of plain text as its content (nothing executable). Finding when it is stored (2xx): ' +
    'medium when the operation documents the types it takes (a media type or extension in its description) and this is not one ' +
    'of them; low when it documents none (an executable type accepted with no restriction in sight).',
  coverage:
    'The type is told by the name and the declared media type only; whether the server checks content (magic bytes) is not ' +
    'tried. Uploads are writes: creates only, unless `writes: existing`.',
  remediation:
    'Check uploads on the server against an allow-list of extensions and media types (and the content\'s own signature), store them ' +
    'outside the web root under names the server chooses, and serve them with Content-Disposition: attachment and nosniff.',
  references: [OWASP_API8, 'https://cwe.mitre.org/data/definitions/434.html', 'https://cheatsheetseries.owasp.org/cheatsheets/File_Upload_Cheat_Sheet.html'],
  appliesTo: (e) => e.flags.includes('URC') && uploadFields(e).length > 0,
  async *run(ctx) {
    const ep = ctx.endpoint;
    if (!mayUpload(ctx, ep)) return ctx.holdBack('uploads to an operation that changes an existing object need `writes: existing`');
    const field = uploadFields(ep)[0]!;
    const documented = field.accepted.filter((t) => t !== PROBE_TYPE.ext && t !== PROBE_TYPE.contentType);
    if (field.accepted.length && documented.length < field.accepted.length) return;
    const filename = `portcullis-${ctx.random.hex(4)}${PROBE_TYPE.ext}`;
    const ex = await sendUpload(ctx, ep, { field: field.name, filename, contentType: PROBE_TYPE.contentType, content: PROBE_CONTENT });
    if (!ex?.ok) return;
    yield {
      parameter: field.name,
      cvss: documented.length ? undefined : UNDOCUMENTED_CVSS,
      description:
        `${describeEndpoint(ep)} stored a file named ${filename} with the media type ${PROBE_TYPE.contentType} (HTTP ${ex.status}). ` +
        (documented.length
          ? `The operation documents ${documented.join(', ')} only: the type is not checked on the server.`
          : 'The operation documents no accepted types, and takes an executable\'s name and type: nothing restricts what is uploaded.') +
        ' The file held one line of text; a real attacker\'s would be malware other users download, or a script the server may serve.',
      notes: [`The file part: name="${field.name}"; filename="${filename}"; Content-Type: ${PROBE_TYPE.contentType}; ${PROBE_CONTENT.length} bytes of text.`],
      exchanges: [{ label: 'Upload of an executable type', exchange: ex }],
      reproduce: ex,
    };
  },
});
