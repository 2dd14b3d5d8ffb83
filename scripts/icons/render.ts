// npm run icons: renders build/icon.svg to build/icons/<N>x<N>.png at every size the platforms
// need, with Debian's Chromium through playwright-core, then writes build/icon.ico and
// build/icon.icns from those PNGs. The results are committed: packaging needs no browser.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { ICON_SIZES, encodeIcns, encodeIco, pngSize } from './formats';

const BUILD = 'build';

async function render(svg: string): Promise<Map<number, Buffer>> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--force-color-profile=srgb'],
  });
  try {
    const page = await browser.newPage({ deviceScaleFactor: 1 });
    const pngs = new Map<number, Buffer>();
    for (const size of ICON_SIZES) {
      await page.setViewportSize({ width: size, height: size });
      const sized = svg.replace('width="1024" height="1024"', `width="${size}" height="${size}"`);
      await page.setContent(
        `<style>html,body{margin:0;background:transparent}svg{display:block}</style>${sized}`,
      );
      const png = await page.screenshot({
        omitBackground: true,
        clip: { x: 0, y: 0, width: size, height: size },
      });
      const { width, height } = pngSize(png);
      if (width !== size || height !== size) throw new Error(`rendered ${width}x${height} for ${size}px`);
      pngs.set(size, png);
    }
    return pngs;
  } finally {
    await browser.close();
  }
}

const svg = readFileSync(join(BUILD, 'icon.svg'), 'utf8');
if (!svg.includes('width="1024" height="1024"')) throw new Error('build/icon.svg must be drawn at 1024x1024');
const pngs = await render(svg);
mkdirSync(join(BUILD, 'icons'), { recursive: true });
for (const [size, png] of pngs) writeFileSync(join(BUILD, 'icons', `${size}x${size}.png`), png);
writeFileSync(join(BUILD, 'icon.png'), pngs.get(1024)!);
writeFileSync(join(BUILD, 'icon.ico'), encodeIco(pngs));
writeFileSync(join(BUILD, 'icon.icns'), encodeIcns(pngs));
console.log(`icons: ${[...pngs.keys()].join(', ')} px, icon.ico and icon.icns written to ${BUILD}/`);
