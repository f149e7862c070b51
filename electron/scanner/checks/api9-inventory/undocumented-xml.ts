// API9:2023 Improper Inventory Management: an interface that reads XML the API description does not
// document — a route outside the description that parses XML uploads or bodies, or a JSON operation that
// also parses its body sent as XML. Such interfaces are often an older version left running (a deprecated
// B2B or SOAP-era endpoint): nobody reviews or hardens them like the documented ones. The probes are the
// XXE check's (common/xml-probes.ts), sent once.

import { defineCheck, describeEndpoint } from '../common/helpers';
import { OWASP_API9 } from '../common/references';
import { xmlParsed, xmlProbes, xmlRoute } from '../common/xml-probes';

export const undocumentedXml = defineCheck({
  id: 'api9-undocumented-xml',
  title: 'XML accepted by an interface the description does not document',
  flag: 'IIM',
  owasp: 'API9:2023',
  cwe: 'CWE-1059',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:L/I:N/A:N',
  kind: 'active',
  safety: 'safe',
  scope: 'endpoint',
  budget: 4,
  description:
    'Uses the XML probes of api8-xml-external-entities on routes the scan discovered beyond the description (their uploads and bodies) ' +
    'and on documented JSON operations re-sent as application/xml. Finding: the server parsed the XML — entities expanded, the listener ' +
    'called, or a plain document\'s field value returned as a parsed value — on a route the description does not list, or on an ' +
    'operation it documents only with JSON.',
  coverage:
    'An XML body that is parsed but never shows in the answer is not seen. Documented XML operations are not reported here (they are ' +
    'documented); their parser is the XXE check\'s.',
  remediation:
    'Retire interfaces that are no longer documented (or document and secure them like the others); accept only the content types an ' +
    'operation documents (415 for anything else), so a forgotten XML parser is not reachable through a JSON route.',
  references: [OWASP_API9, 'https://cwe.mitre.org/data/definitions/1059.html', 'https://cheatsheetseries.owasp.org/cheatsheets/Web_Service_Security_Cheat_Sheet.html'],
  appliesTo: (e) => {
    const route = xmlRoute(e);
    return route === 'json-as-xml' || (!!e.discovered && route !== null);
  },
  async *run(ctx) {
    const r = await xmlProbes(ctx);
    if (!r || !xmlParsed(r)) return;
    const ep = ctx.endpoint;
    const proof = r.internal?.expanded ? r.internal.ex : r.external?.hit ? r.external.ex : r.parsed!.ex;
    const how = r.internal?.expanded
      ? `it expanded the entities of an XML document (HTTP ${proof.status})`
      : r.external?.hit
        ? 'it fetched the external entity of an XML document from the scanner\'s listener'
        : `it read the field values of an XML document (the value "${r.parsed!.marker}" came back as a parsed value, HTTP ${proof.status})`;
    const documentedJson = !ep.discovered;
    yield {
      name: documentedJson ? 'XML accepted where the description documents only JSON' : 'Undocumented route parses XML',
      parameter: r.field ?? null,
      description: documentedJson
        ? `${describeEndpoint(ep)} is documented with a JSON body, yet parses the same body sent as application/xml: ${how}. An undocumented ` +
          'content type is a second interface (often an older one left running) that nobody tests or hardens like the documented one.'
        : `${describeEndpoint(ep)} is not in the API description (found by ${ep.discovered}), and parses XML ${r.route === 'xml-upload' ? 'files uploaded to it' : 'sent to it'}: ` +
          `${how}. An undocumented XML interface is typically a deprecated one left running, outside the inventory and its reviews.`,
      exchanges: [...(r.baseline ? [{ label: 'The documented JSON request', exchange: r.baseline }] : []), { label: 'XML sent instead', exchange: proof }],
      reproduce: proof,
    };
  },
});
