import type { Migration } from '../../node/sqlite';

/** The local service's schema, one numbered step at a time. Never edit a released step: add one. */
export const serviceMigrations: readonly Migration[] = [
  {
    version: 1,
    name: 'users, credentials, wallets, tokens',
    up: (db) => {
      db.exec(`
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
        CREATE TABLE users (
          id TEXT PRIMARY KEY,
          address TEXT NOT NULL UNIQUE COLLATE NOCASE,
          role TEXT NOT NULL DEFAULT 'user',
          is_blocked INTEGER NOT NULL DEFAULT 0,
          is_activated INTEGER NOT NULL DEFAULT 1,
          block_note TEXT NOT NULL DEFAULT '',
          referral_code TEXT NOT NULL UNIQUE,
          referred_by TEXT REFERENCES users(id),
          is_skipped_referral INTEGER NOT NULL DEFAULT 0,
          broker_id TEXT,
          copy_trade_quota INTEGER NOT NULL,
          plan INTEGER NOT NULL DEFAULT 0,
          created_at TEXT NOT NULL
        ) STRICT;
        CREATE TABLE login_codes (
          address TEXT PRIMARY KEY COLLATE NOCASE,
          code TEXT NOT NULL,
          expires_at_ms INTEGER NOT NULL
        ) STRICT;
        CREATE TABLE api_keys (
          id TEXT PRIMARY KEY,
          key_hash TEXT NOT NULL UNIQUE,
          label TEXT NOT NULL DEFAULT '',
          created_at TEXT NOT NULL
        ) STRICT;
        CREATE TABLE copy_wallets (
          id TEXT PRIMARY KEY,
          user_id TEXT NOT NULL REFERENCES users(id),
          name TEXT NOT NULL,
          exchange TEXT NOT NULL,
          api_key TEXT NOT NULL DEFAULT '',
          embedded_wallet TEXT,
          is_embedded INTEGER NOT NULL DEFAULT 0,
          verified INTEGER NOT NULL DEFAULT 0,
          balance REAL NOT NULL DEFAULT 0,
          created_at TEXT NOT NULL
        ) STRICT;
        CREATE INDEX copy_wallets_user ON copy_wallets(user_id);
        CREATE TABLE tokens (
          protocol TEXT NOT NULL,
          symbol TEXT NOT NULL,
          index_token TEXT NOT NULL,
          is_forex INTEGER NOT NULL DEFAULT 0,
          max_leverage INTEGER NOT NULL,
          PRIMARY KEY (protocol, symbol)
        ) STRICT;
      `);
    },
  },
];
