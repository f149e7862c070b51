// Renders build/icon.svg to the PNGs, .ico and .icns electron-builder packages (committed; rerun after
// changing the SVG): build/icons/<n>x<n>.png for Linux, build/icon.png (1024), build/icon.ico
// (Windows: 16-256 PNG entries) and build/icon.icns (macOS: PNG entries 16-1024). Uses Debian's
// Chromium through playwright-core, like the browser tests.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const build = path.join(root, 'build');
const svg = fs.readFileSync(path.join(build, 'icon.svg'), 'utf8');
const SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
const png = new Map();
try {
  const page = await browser.newPage({ deviceScaleFactor: 1 });
  for (const size of SIZES) {
    await page.setViewportSize({ width: size, height: size });
    const sized = svg.replace('width="1024" height="1024"', `width="${size}" height="${size}"`);
    await page.setContent(`<!doctype html><html><body style="margin:0;background:transparent">${sized}</body></html>`);
    png.set(size, await page.locator('svg').screenshot({ omitBackground: true }));
  }
} finally {
  await browser.close();
}

fs.mkdirSync(path.join(build, 'icons'), { recursive: true });
for (const size of SIZES) fs.writeFileSync(path.join(build, 'icons', `${size}x${size}.png`), png.get(size));
fs.writeFileSync(path.join(build, 'icon.png'), png.get(1024));

// ICO: a directory of PNG images (Windows Vista and later read PNG entries).
function ico(sizes) {
  const header = Buffer.alloc(6 + 16 * sizes.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(sizes.length, 4);
  let offset = header.length;
  sizes.forEach((size, i) => {
    const data = png.get(size);
    const e = 6 + 16 * i;
    header.writeUInt8(size >= 256 ? 0 : size, e);
    header.writeUInt8(size >= 256 ? 0 : size, e + 1);
    header.writeUInt8(0, e + 2);
    header.writeUInt8(0, e + 3);
    header.writeUInt16LE(1, e + 4);
    header.writeUInt16LE(32, e + 6);
    header.writeUInt32LE(data.length, e + 8);
    header.writeUInt32LE(offset, e + 12);
    offset += data.length;
  });
  return Buffer.concat([header, ...sizes.map((s) => png.get(s))]);
}

// ICNS: 'icns' + length, then typed PNG entries (retina types reuse the double size).
function icns(entries) {
  const chunks = entries.map(([type, size]) => {
    const data = png.get(size);
    const head = Buffer.alloc(8);
    head.write(type, 0, 'ascii');
    head.writeUInt32BE(data.length + 8, 4);
    return Buffer.concat([head, data]);
  });
  const body = Buffer.concat(chunks);
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'ascii');
  head.writeUInt32BE(body.length + 8, 4);
  return Buffer.concat([head, body]);
}

fs.writeFileSync(path.join(build, 'icon.ico'), ico([16, 24, 32, 48, 64, 128, 256]));
fs.writeFileSync(
  path.join(build, 'icon.icns'),
  icns([
    ['icp4', 16],
    ['icp5', 32],
    ['icp6', 64],
    ['ic07', 128],
    ['ic08', 256],
    ['ic09', 512],
    ['ic10', 1024],
    ['ic11', 32],
    ['ic12', 64],
    ['ic13', 256],
    ['ic14', 512],
  ]),
);
console.log(`Icons written to ${path.relative(root, build)}/: ${SIZES.join(', ')} px PNGs, icon.png, icon.ico, icon.icns`);
