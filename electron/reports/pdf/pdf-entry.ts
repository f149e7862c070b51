// The PDF half of the reports, as one lazily loaded module (see render.ts).

export { renderPdf } from './document';
export { executiveSpec } from './executive';
export { technicalSpec } from './technical';
