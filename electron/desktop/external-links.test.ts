import { describe, expect, it } from 'vitest';
import { checkExternalUrl } from './external-links';

describe('external links', () => {
  it('opens https links to the allowed hosts, normalised', () => {
    expect(checkExternalUrl('https://owasp.org/API-Security/editions/2023/en/0x11-t10/')).toEqual({
      ok: true,
      url: 'https://owasp.org/API-Security/editions/2023/en/0x11-t10/',
    });
    expect(checkExternalUrl('https://cwe.mitre.org/data/definitions/639.html')).toMatchObject({ ok: true });
    expect(checkExternalUrl('https://GitHub.com/owner/repo#readme')).toEqual({ ok: true, url: 'https://github.com/owner/repo#readme' });
    expect(checkExternalUrl('https://github.com:443/x')).toEqual({ ok: true, url: 'https://github.com/x' });
  });

  it('refuses look-alike hosts', () => {
    for (const url of [
      'https://github.com.evil.example/',
      'https://evil-github.com/',
      'https://github.co/',
      'https://gist.github.com.evil.example/',
      'https://sub.github.com/',
      'https://github.com./',
      'https://xn--gthub-2ta.com/', // gíthub.com
      'https://gíthub.com/',
      'https://owasp.org.evil.example/',
      'https://evil.example/owasp.org',
      'https://evil.example/?https://owasp.org',
    ]) {
      expect(checkExternalUrl(url), url).toMatchObject({ ok: false });
    }
  });

  it('refuses userinfo tricks, other ports and every other scheme', () => {
    for (const url of [
      'https://github.com@evil.example/',
      'https://github.com:pass@evil.example/',
      'https://user@github.com/',
      'https://evil.example\\@github.com/',
      'https://github.com:8443/',
      'http://github.com/',
      'javascript:alert(1)',
      'JavaScript://github.com/%0aalert(1)',
      'data:text/html,<script>alert(1)</script>',
      'file:///etc/passwd',
      'ftp://github.com/',
      'app://portcullis/index.html',
      'smb://evil.example/share',
      '//github.com/',
      ' https://github.com/',
      'https://github.com/\n',
      'https://git\thub.com/',
      `https://github.com/${'a'.repeat(3000)}`,
      '',
    ]) {
      expect(checkExternalUrl(url), JSON.stringify(url)).toMatchObject({ ok: false });
    }
    for (const value of [null, undefined, 42, { url: 'https://github.com/' }, ['https://github.com/']]) {
      expect(checkExternalUrl(value)).toMatchObject({ ok: false });
    }
  });

  it('opens a mail draft to the support address only', () => {
    expect(checkExternalUrl('mailto:support@portcullis.dev?subject=%5BSUPPORT%5D%20Help')).toMatchObject({ ok: true });
    expect(checkExternalUrl('mailto:someone@evil.example')).toMatchObject({ ok: false });
    expect(checkExternalUrl('mailto:support@portcullis.dev.evil.example')).toMatchObject({ ok: false });
    expect(checkExternalUrl('mailto:support@portcullis.dev?bcc=someone@evil.example')).toMatchObject({ ok: false });
    expect(checkExternalUrl('mailto:support@portcullis.dev,someone@evil.example')).toMatchObject({ ok: false });
  });
});
