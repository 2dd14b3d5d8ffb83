/// <reference types="vite/client" />
// `window.api` is declared once, by the preload (src/preload/index.d.ts).
export {};
