import { z } from 'zod';
import { serviceProfileSchema } from '../../profile';
import { zBool, zInt, zList, zNonEmpty, zOneOf, zStrict, zText } from '../../api/common';

/** A profile as the terminal shows it: the API key itself never crosses the bridge. */
export const profileViewSchema = serviceProfileSchema.extend({ hasApiKey: z.boolean() });
export type ProfileView = z.infer<typeof profileViewSchema>;
export const profilesSchema = z.object({ profiles: z.array(profileViewSchema), activeId: z.string() });
export type Profiles = z.infer<typeof profilesSchema>;

/**
 * `profiles:save`: adds or replaces a remote profile. `apiKey`: a new key to store in the keychain,
 * `null` to remove the stored one, omitted to keep it.
 */
export const profileSaveRequestSchema = zStrict({
  profile: serviceProfileSchema,
  apiKey: zNonEmpty(400).nullable().optional(),
});
export const profileIdRequestSchema = zStrict({ id: zNonEmpty(40) });

/** `system` (the default) follows the OS's light or dark setting (docs/ui.md, Theme). */
export const THEMES = ['system', 'dark', 'light'] as const;

/**
 * Where the local service's traders come from, each on or off (applied by restarting it):
 * `demo`, the simulated demo market (`--demo --live`); `hyperliquid`, real traders from the
 * venue's public data (`--feed hyperliquid`). A fresh install has both on.
 */
export const DATA_SOURCES = ['demo', 'hyperliquid'] as const;
export type DataSource = (typeof DATA_SOURCES)[number];
export const dataSourcesSchema = z.object({ demo: z.boolean(), hyperliquid: z.boolean() });
export type DataSources = z.infer<typeof dataSourcesSchema>;

export const settingsSchema = z.object({
  theme: z.enum(THEMES),
  /** Desktop notifications when a copy position opens or closes (opt-in). */
  notifications: z.boolean(),
  /** Cache size limit in MB; least recently used entries are evicted above it. */
  cacheLimitMb: z.number(),
  dataSources: dataSourcesSchema,
});
export type Settings = z.infer<typeof settingsSchema>;
export const settingsUpdateRequestSchema = zStrict({
  theme: zOneOf(THEMES).optional(),
  notifications: zBool().optional(),
  cacheLimitMb: zInt()
    .min(16, { error: 'must be at least 16' })
    .max(16384, { error: 'must be at most 16384' })
    .optional(),
  /** The sources to change; the others keep their state. */
  dataSources: zStrict({ demo: zBool().optional(), hyperliquid: zBool().optional() }).optional(),
});
export type SettingsUpdate = z.infer<typeof settingsUpdateRequestSchema>;

export const cacheStatsSchema = z.object({
  bytes: z.number(),
  limitBytes: z.number(),
  entries: z.number(),
  datasets: z.number(),
  datasetRecords: z.number(),
  path: z.string(),
});
export type CacheStats = z.infer<typeof cacheStatsSchema>;

/** `export:csv`: a table as the user sees it, written to a file the user picks. */
const cell = z.union([zText(), z.number(), z.boolean(), z.null()]);
export const exportCsvRequestSchema = zStrict({
  suggestedName: zText().regex(/^[\w .-]{1,80}\.csv$/, {
    message: 'must be a file name ending in .csv (letters, digits, . - _ and spaces)',
  }),
  columns: zList(zNonEmpty(80))
    .min(1, { error: 'must not be empty' })
    .max(200, { error: 'must have at most 200 entries' }),
  rows: zList(zList(cell)).max(200_000, { error: 'must have at most 200000 entries' }),
});
/**
 * Where the file went; `path: null` when the user cancelled the save dialog, or cancelled the
 * export while it was written (`cancelled: true`; no file is left, partial or whole).
 */
export const exportCsvSchema = z.object({
  path: z.string().nullable(),
  rows: z.number(),
  cancelled: z.boolean().optional(),
});
/** `export:cancel`: stops the export being written, if any. */
export const exportCancelRequestSchema = zStrict({});
export const exportCancelSchema = z.object({ cancelled: z.boolean() });
