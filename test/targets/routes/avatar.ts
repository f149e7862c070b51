// A profile picture upload as a careful app writes one, in both twins (no flaw): POST /api/v2/me/avatar
// takes a multipart "file" part, accepts only PNG and JPEG images (by extension, declared type and the
// file's first bytes) of at most 100 KB, and keeps the latest picture of each user in memory. It gives
// the upload checks a documented route to prove themselves silent on.

import type { Ctx } from '../context';
import { HttpError, json, type Router } from '../http';
import { filePart } from './legacy-files';

export const AVATAR_MAX_BYTES = 100 * 1024;
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff]);

export function registerAvatar(r: Router<Ctx>): void {
  const pictures = new Map<number, { name: string; size: number }>();

  r.post('/api/v2/me/avatar', async (ctx) => {
    const me = await ctx.user();
    const file = filePart(ctx);
    if (!file) throw new HttpError(400, 'no_file', 'No picture was sent: attach a PNG or JPEG image in the form field "file".');
    if (file.content.length > AVATAR_MAX_BYTES) throw new HttpError(413, 'too_large', 'The picture is larger than 100 KB.');
    const ext = file.filename.slice(file.filename.lastIndexOf('.') + 1).toLowerCase();
    const png = ext === 'png' && file.contentType === 'image/png' && file.content.subarray(0, 4).equals(PNG);
    const jpeg = (ext === 'jpg' || ext === 'jpeg') && file.contentType === 'image/jpeg' && file.content.subarray(0, 3).equals(JPEG);
    if (!png && !jpeg) throw new HttpError(415, 'unsupported_type', 'Only PNG and JPEG images are accepted.');
    pictures.set(me.id, { name: file.filename, size: file.content.length });
    return json(201, { size: file.content.length, type: file.contentType });
  });
}
