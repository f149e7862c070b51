import { describe, expect, it } from 'vitest';
import { TEAM_SERVER_MESSAGES } from '../../../shared/messages';
import { checkServerUrl } from './team-server';

describe('team server addresses', () => {
  it('keeps the origin of an https address, or of http on this computer', () => {
    expect(checkServerUrl(' https://portcullis.example.com/ ')).toEqual({ ok: true, url: 'https://portcullis.example.com', host: 'portcullis.example.com' });
    expect(checkServerUrl('https://Portcullis.Example.com:8443')).toEqual({ ok: true, url: 'https://portcullis.example.com:8443', host: 'portcullis.example.com:8443' });
    expect(checkServerUrl('portcullis.example.com')).toMatchObject({ ok: true, url: 'https://portcullis.example.com' });
    expect(checkServerUrl('http://127.0.0.1:4780')).toMatchObject({ ok: true, url: 'http://127.0.0.1:4780' });
    expect(checkServerUrl('http://localhost:4780/')).toMatchObject({ ok: true, url: 'http://localhost:4780' });
  });

  it('refuses plain http across a network, paths, credentials and other schemes', () => {
    expect(checkServerUrl('')).toEqual({ ok: false, message: TEAM_SERVER_MESSAGES.urlRequired });
    expect(checkServerUrl('http://portcullis.example.com')).toEqual({ ok: false, message: TEAM_SERVER_MESSAGES.httpsRequired });
    expect(checkServerUrl('http://192.168.1.10:4780')).toEqual({ ok: false, message: TEAM_SERVER_MESSAGES.httpsRequired });
    expect(checkServerUrl('http://127.0.0.1.evil.example')).toEqual({ ok: false, message: TEAM_SERVER_MESSAGES.httpsRequired });
    expect(checkServerUrl('http://[::1]:4780')).toEqual({ ok: false, message: TEAM_SERVER_MESSAGES.httpsRequired });
    for (const u of ['https://a.example/api', 'https://a.example/?x=1', 'https://a.example/#x', 'https://user:pw@a.example']) {
      expect(checkServerUrl(u), u).toEqual({ ok: false, message: TEAM_SERVER_MESSAGES.originOnly });
    }
    for (const u of ['javascript:alert(1)', 'ftp://a.example', 'file:///etc', 'https://', 'http://exa mple.com']) {
      expect(checkServerUrl(u).ok, u).toBe(false);
    }
  });
});
