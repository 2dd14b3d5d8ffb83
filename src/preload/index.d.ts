import type { CopydeskApi } from '../shared/ipc/contract';

declare global {
  interface Window {
    /** Defined by the preload in Electron; absent in the web shell (the renderer then uses HTTP). */
    api?: CopydeskApi;
  }
}
export {};
