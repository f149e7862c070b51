// Endpoints typed by hand, one per line: "METHOD /path optional summary".

const LINE = /^([A-Za-z]+)\s+(\/\S*)(?:\s+(.+))?$/;

export function parseEndpointLines(text: string): { endpoints: { method: string; path: string; summary?: string }[]; badLine: number | null } {
  const endpoints: { method: string; path: string; summary?: string }[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!line) continue;
    const m = LINE.exec(line);
    if (!m) return { endpoints, badLine: i + 1 };
    endpoints.push({ method: m[1]!.toUpperCase(), path: m[2]!, ...(m[3] ? { summary: m[3].trim() } : {}) });
  }
  return { endpoints, badLine: null };
}
