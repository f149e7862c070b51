import crypto from 'node:crypto';
import { expect, it } from 'vitest';
import { scanCertificate } from '../../electron/scanner/checks/api2-authentication/scan-certificate';

it('makes one self-signed certificate per key, of that key, readable by Node as DER (x5c) and PEM (x5u)', async () => {
  const pair = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const cert = await scanCertificate(pair);
  const der = new crypto.X509Certificate(Buffer.from(cert.x5c, 'base64'));
  const pem = new crypto.X509Certificate(cert.pem);
  expect(der.publicKey.equals(pair.publicKey)).toBe(true);
  expect(der.verify(pair.publicKey)).toBe(true);
  expect(der.subject).toBe('CN=Portcullis scan key');
  expect(der.issuer).toBe(der.subject);
  expect(pem.fingerprint256).toBe(der.fingerprint256);
  expect(new Date(der.validFrom).getTime()).toBeLessThan(Date.now());
  expect(new Date(der.validTo).getTime()).toBeGreaterThan(Date.now() + 300 * 86_400_000);
  expect(await scanCertificate(pair)).toBe(cert);
});
