/**
 * How the web shell carries the IPC contract to a browser: `POST /ipc/<channel>` with the JSON
 * request and the per-run token in a header, answered by the Result as JSON; events arrive over a
 * WebSocket at `/events?token=…` as `{event, payload}` frames; on connect the shell replays the
 * latest payload of each event. A missing or wrong token answers HTTP 401 (a WebSocket upgrade,
 * 403) before any handler runs; a foreign Origin or Host answers 403.
 */
export const WEB_TOKEN_HEADER = 'x-copydesk-token';
export const WEB_TOKEN_QUERY = 'token';
export const WEB_IPC_PREFIX = '/ipc/';
export const WEB_EVENTS_PATH = '/events';
export const WEB_TOKEN_STORAGE_KEY = 'copydesk.webToken';
