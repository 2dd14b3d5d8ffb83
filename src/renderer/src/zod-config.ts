import { z } from 'zod';

// Imported first by main.tsx, before any module builds a schema. zod decides whether it may compile
// its validators by trying `new Function` once; the page's Content-Security-Policy (no
// 'unsafe-eval', index.html) refuses it and Chromium logs that refusal as an error on every start.
// Jitless validation never tries (docs/desktop.md, "A clean console").
z.config({ jitless: true });
