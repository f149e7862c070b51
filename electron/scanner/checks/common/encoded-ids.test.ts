import { describe, expect, it } from 'vitest';
import { decodedTexts, decodeId, encodedNeighbours, encodeLike, shiftNumber, swapKey } from './encoded-ids';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const b64url = (s: string) => Buffer.from(s).toString('base64url');
const hex = (s: string) => Buffer.from(s).toString('hex');

describe('decodeId', () => {
  it('reads base64 (padded or not), url-safe base64 and hex of numbers and short keys', () => {
    expect(decodeId('MTAwMQ==')).toMatchObject({ encoding: 'base64', plain: '1001', padded: true });
    expect(decodeId('MTAwMQ')).toMatchObject({ plain: '1001', padded: false });
    expect(decodeId(b64('user:42'))).toMatchObject({ plain: 'user:42' });
    expect(decodeId(b64url('order>1001?'.replace(/[>?]/g, '-')))).toMatchObject({ plain: 'order-1001-' });
    expect(decodeId(hex('user:42'))).toMatchObject({ encoding: 'hex', plain: 'user:42', upper: false });
    expect(decodeId(hex('inv-7').toUpperCase())).toMatchObject({ encoding: 'hex', plain: 'inv-7', upper: true });
  });

  it('leaves plain ids alone: numbers, words, uuids, random tokens and values that decode to noise', () => {
    for (const v of ['1001', '31303031', 'alice', 'name1', 'test', 'bookTitle77', 'a11ce000-0000-4000-8000-000000000001', 'doc_7f3a9c21e4', 'deadbeef', 'pm_1Nalice4Visa', 'Zm9vYmFy//8=', 'AAECAwQF']) {
      expect(decodeId(v), v).toBeNull();
    }
  });

  it('does not take prose or binary for a key', () => {
    expect(decodeId(b64('hello world, this is text'))).toBeNull();
    expect(decodeId(Buffer.from([0, 1, 2, 3, 250, 251]).toString('base64'))).toBeNull();
  });
});

describe('neighbours', () => {
  it('moves the last number, keeping zero padding, never below zero', () => {
    expect(shiftNumber('1001', 1)).toBe('1002');
    expect(shiftNumber('ord-0099', 1)).toBe('ord-0100');
    expect(shiftNumber('user:0', -1)).toBeNull();
    expect(shiftNumber('alice', 1)).toBeNull();
  });

  it('swaps a whole key only', () => {
    expect(swapKey('user:42', '42', '43')).toBe('user:43');
    expect(swapKey('user:1420', '42', '43')).toBeNull();
    expect(swapKey('alice', 'alice', 'bob')).toBe('bob');
  });

  it('encodes every candidate exactly as the original was written', () => {
    const id = decodeId('MTAwMQ==')!;
    expect(encodedNeighbours(id).map((c) => [c.plain, c.value])).toEqual([
      ['1002', b64('1002')],
      ['1000', b64('1000')],
    ]);
    const key = decodeId(b64url('user:2'))!;
    expect(encodedNeighbours(key, { own: '2', other: '3' })[0]).toMatchObject({ plain: 'user:3', value: b64url('user:3') });
    expect(encodeLike('user:3', decodeId(hex('user:2').toUpperCase())!)).toBe(hex('user:3').toUpperCase());
  });
});

describe('decodedTexts', () => {
  it('finds text returned base64, url-safe base64 or hex encoded, in JSON or plain', () => {
    const page = 'root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1::/usr/sbin:/usr/sbin/nologin\n';
    expect(decodedTexts(JSON.stringify({ content: b64(page) }))).toContain(page);
    expect(decodedTexts(b64url('<html><title>Welcome to nginx!</title></html>'))).toEqual(['<html><title>Welcome to nginx!</title></html>']);
    expect(decodedTexts(`{"hex":"${hex('[fonts]\n[extensions]\n')}"}`)).toEqual(['[fonts]\n[extensions]\n']);
  });

  it('leaves binary, random tokens and plain words out', () => {
    expect(decodedTexts(JSON.stringify({ png: Buffer.from([137, 80, 78, 71, 0, 1, 2, 3, 200, 201, 202, 203, 0, 0, 0, 13]).toString('base64') }))).toEqual([]);
    expect(decodedTexts('{"id":"a11ce000-0000-4000-8000-000000000001","token":"k8Jz2QvN5mX1pL7rT4wY9bC3"}')).toEqual([]);
    expect(decodedTexts('just some words in a sentence without encoding')).toEqual([]);
  });
});
