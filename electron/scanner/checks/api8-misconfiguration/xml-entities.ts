// API8:2023 Security Misconfiguration, injection: XML external entities (XXE). An XML parser that
// processes the DTD a client sends expands entities it declares — and, with external entities on, reads
// the files and URLs they name. Proven safely: internal entities whose values join only when expanded,
// and an external entity that names the scan's own listener only (common/xml-probes.ts).

import { adjustCvss } from '../../cvss';
import { defineCheck, describeEndpoint } from '../common/helpers';
import { OWASP_API8 } from '../common/references';
import { xmlProbes, xmlRoute, type XmlProbeResult } from '../common/xml-probes';

const WHERE: Record<XmlProbeResult['route'], string> = {
  'xml-body': 'its XML request body',
  'xml-upload': 'an uploaded .xml file',
  'json-as-xml': 'its body re-sent as XML (the description documents JSON)',
};

export const xmlExternalEntities = defineCheck({
  id: 'api8-xml-external-entities',
  title: 'XML entities processed (XXE)',
  flag: 'SEC_MISC',
  owasp: 'API8:2023',
  cwe: 'CWE-611',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:C/C:H/I:N/A:L',
  kind: 'active',
  safety: 'safe',
  scope: 'endpoint',
  budget: 4,
  description:
    'Sends XML where the operation reads it — an XML request body, a .xml file in its multipart file part (uploads), or a JSON ' +
    'operation\'s body re-sent as application/xml — with a DTD declaring two internal entities whose values join only when the ' +
    'parser expands them, then one declaring an external entity that names the scanner\'s own listener on 127.0.0.1 (a unique ' +
    'token). Finding: the answer carries the joined values (the parser expands entities a client declares: medium), or the ' +
    'listener receives the token (it fetches external entities: high, the same parser reads local files). Never a file path, never ' +
    'an expansion bomb.',
  coverage:
    'Only what the answer shows or the listener receives: a parser that expands entities into something it never returns, and ' +
    'one that cannot reach 127.0.0.1, stay silent. JSON operations are re-sent as XML only where the scan may write (creates, or ' +
    '`writes: existing`), and given the external entity only when a plain XML document was read. Uploads follow the write policy.',
  remediation:
    'Disable DTD processing in the XML parser (or at least external entities and entity expansion: libxml2 without NOENT/DTDLOAD, ' +
    'Java\'s disallow-doctype-decl, .NET DtdProcessing.Prohibit); accept only the content types the API documents; parse uploads ' +
    'with the same hardened parser.',
  references: [OWASP_API8, 'https://cwe.mitre.org/data/definitions/611.html', 'https://cheatsheetseries.owasp.org/cheatsheets/XML_External_Entity_Prevention_Cheat_Sheet.html'],
  appliesTo: (e) => xmlRoute(e) !== null,
  async *run(ctx) {
    const r = await xmlProbes(ctx);
    if (!r) return;
    const ep = ctx.endpoint;
    const where = WHERE[r.route];
    if (r.external?.hit) {
      yield {
        name: 'XML external entity fetched (XXE)',
        parameter: r.field ?? null,
        description:
          `${describeEndpoint(ep)} resolves external entities in ${where}: an entity declared as SYSTEM "<the scanner's listener>" made ` +
          `the server call it (${r.external.hit.method} ${r.external.hit.url} from ${r.external.hit.remoteAddress}). The same parser reads any file or URL a client ` +
          'names: local files (file:///etc/passwd), internal services and cloud metadata.',
        notes: [`Listener hit for token ${r.external.token}: ${r.external.hit.method} ${r.external.hit.url} from ${r.external.hit.remoteAddress}.`],
        exchanges: [...(r.internal ? [{ label: 'Internal entities', exchange: r.internal.ex }] : []), { label: 'External entity naming the listener', exchange: r.external.ex }],
        reproduce: r.external.ex,
      };
      return;
    }
    if (!r.internal?.expanded) return;
    const { markers, ex } = r.internal;
    yield {
      name: 'XML entities declared by the client are expanded (XXE)',
      parameter: r.field ?? null,
      cvss: adjustCvss(ctx.check.cvss, { C: 'L', A: 'L' }),
      confidence: 'high',
      description:
        `${describeEndpoint(ep)} expands entities declared in the DTD of ${where}: two entities whose values are "${markers.first}" and ` +
        `"${markers.second}" came back joined as "${markers.joined}" (HTTP ${ex.status}), which only entity expansion produces. A parser ` +
        'that processes a client\'s DTD is open to XML external entities (reading local files and internal URLs) where external entities ' +
        'are on, and to expansion bombs (denial of service).' +
        (r.external ? ' The external entity naming the scanner\'s listener was not fetched (external entities may be off, or the network unreachable).' : ''),
      notes: [`The document declared <!ENTITY pca "${markers.first}"><!ENTITY pcb "${markers.second}"> and referenced &pca;&pcb;.`],
      exchanges: [{ label: 'Internal entities expanded', exchange: ex }],
      reproduce: ex,
    };
  },
});
