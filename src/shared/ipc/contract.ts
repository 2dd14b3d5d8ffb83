import { z } from 'zod';
import type { Result } from '../result';
import type { Channel, EventName } from './names';

const empty = z.strictObject({});
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, { message: 'must be a 0x address of 40 hex digits' });

/** What the terminal may know about the wallet: never the key. */
export const walletStatusSchema = z.object({
  hasWallet: z.boolean(),
  address: address.nullable(),
});
export type WalletStatus = z.infer<typeof walletStatusSchema>;

/** The logged-in user as the terminal shows it (the JWT stays in the core). */
export const sessionSchema = z.object({
  address,
  userId: z.string(),
  role: z.string(),
  copyTradeQuota: z.number(),
  plan: z.number(),
  referralCode: z.string(),
  loggedInAt: z.string(),
});
export type Session = z.infer<typeof sessionSchema>;

export const authStatusSchema = z.object({ loggedIn: z.boolean(), session: sessionSchema.nullable() });
export type AuthStatus = z.infer<typeof authStatusSchema>;

export const tokenGroupSchema = z.object({
  protocol: z.string(),
  tokens: z.array(z.object({ symbol: z.string(), indexTokens: z.array(z.string()), isForex: z.boolean() })),
});
export const tokensListSchema = z.object({ groups: z.array(tokenGroupSchema), fetchedAt: z.string() });
export type TokensList = z.infer<typeof tokensListSchema>;

export const appInfoSchema = z.object({
  appVersion: z.string(),
  shell: z.enum(['electron', 'web']),
  dataDir: z.string(),
  profile: z.object({
    id: z.string(),
    name: z.string(),
    baseUrl: z.string(),
    kind: z.enum(['local', 'remote']),
  }),
  /** True when the keychain lives only for this run (headless start): a wallet made now is lost at exit. */
  ephemeralKeychain: z.boolean(),
  versions: z.record(z.string(), z.string()),
});
export type AppInfo = z.infer<typeof appInfoSchema>;

/** Channel → request and response schemas. Requests are validated as `unknown` by the core. */
export const channels = {
  'app:info': { request: empty, response: appInfoSchema },
  'wallet:status': { request: empty, response: walletStatusSchema },
  'wallet:create': { request: empty, response: walletStatusSchema },
  'wallet:import': {
    request: z.strictObject({
      privateKey: z
        .string()
        .trim()
        .regex(/^(0x)?[0-9a-fA-F]{64}$/, { message: 'must be 64 hex digits, with or without 0x' }),
    }),
    response: walletStatusSchema,
  },
  'wallet:delete': {
    // The address must be typed back: deleting a key is not undoable.
    request: z.strictObject({ address }),
    response: walletStatusSchema,
  },
  'auth:status': { request: empty, response: authStatusSchema },
  'auth:login': { request: empty, response: sessionSchema },
  'auth:logout': { request: empty, response: authStatusSchema },
  'tokens:list': { request: empty, response: tokensListSchema },
} as const satisfies Record<Channel, { request: z.ZodType; response: z.ZodType }>;

/** Event → payload schema: what the core pushes to the renderer. */
export const events = {
  'service:state': z.object({
    state: z.enum(['starting', 'ready', 'stopped', 'failed']),
    url: z.string().nullable(),
    message: z.string().nullable(),
  }),
  'session:changed': authStatusSchema,
} as const satisfies Record<EventName, z.ZodType>;

export type ChannelRequest<C extends Channel> = z.input<(typeof channels)[C]['request']>;
export type ChannelResponse<C extends Channel> = z.output<(typeof channels)[C]['response']>;
export type EventPayload<E extends EventName> = z.output<(typeof events)[E]>;

/** `window.api`: the only way the renderer reaches the core, in Electron and in the web shell. */
export interface CopydeskApi {
  invoke<C extends Channel>(channel: C, request: ChannelRequest<C>): Promise<Result<ChannelResponse<C>>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}
