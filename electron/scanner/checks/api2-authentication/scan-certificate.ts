// A self-signed X.509 certificate of the scan's own RSA key, for the JWT header attacks that carry a
// certificate (`x5c`) or point at one (`x5u`): a verifier that takes the key from whatever
// certificate the token names, without chaining it to a certificate authority it trusts, accepts
// tokens the scan signed. Node can read certificates but not make them, hence pkijs.

import crypto from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

export interface ScanCertificate {
  /** DER, base64 (not base64url): one entry of a JWT header's `x5c`. */
  x5c: string;
  /** The same certificate as PEM: what an `x5u` URL serves (RFC 7515 section 4.1.5). */
  pem: string;
}

const RS256 = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } as const;
const DAY_MS = 86_400_000;

async function make(pair: { privateKey: crypto.KeyObject; publicKey: crypto.KeyObject }): Promise<ScanCertificate> {
  const subtle = crypto.webcrypto.subtle;
  const engine = new pkijs.CryptoEngine({ name: 'node', crypto: crypto.webcrypto as unknown as Crypto });
  const privateKey = await subtle.importKey('pkcs8', pair.privateKey.export({ type: 'pkcs8', format: 'der' }), RS256, false, ['sign']);
  const publicKey = await subtle.importKey('spki', pair.publicKey.export({ type: 'spki', format: 'der' }), RS256, true, ['verify']);
  const cert = new pkijs.Certificate();
  cert.version = 2;
  // A positive serial: its first byte below 0x80.
  const serial = crypto.randomBytes(16);
  serial[0] = serial[0]! & 0x7f;
  cert.serialNumber = new asn1js.Integer({ valueHex: serial });
  const name = () => new pkijs.AttributeTypeAndValue({ type: '2.5.4.3', value: new asn1js.Utf8String({ value: 'Portcullis scan key' }) });
  cert.issuer.typesAndValues.push(name());
  cert.subject.typesAndValues.push(name());
  // Valid from the day before (a verifier whose clock lags) for a year: the scan's own key is one per process.
  const now = Date.now();
  cert.notBefore.value = new Date(now - DAY_MS);
  cert.notAfter.value = new Date(now + 365 * DAY_MS);
  await cert.subjectPublicKeyInfo.importKey(publicKey, engine);
  await cert.sign(privateKey, 'SHA-256', engine);
  const der = Buffer.from(cert.toSchema().toBER(false));
  const x5c = der.toString('base64');
  return { x5c, pem: `-----BEGIN CERTIFICATE-----\n${x5c.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n` };
}

const made = new WeakMap<crypto.KeyObject, Promise<ScanCertificate>>();

/** The certificate of this key pair, made once and kept (a scan sends it in several tokens). */
export function scanCertificate(pair: { privateKey: crypto.KeyObject; publicKey: crypto.KeyObject }): Promise<ScanCertificate> {
  let cert = made.get(pair.privateKey);
  if (!cert) {
    cert = make(pair);
    made.set(pair.privateKey, cert);
  }
  return cert;
}
