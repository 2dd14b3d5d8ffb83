import type { Migration } from '../../node/sqlite';
import { rekeyStoredFills } from '../positions/fill-keys';
import { addClientStatistics } from '../statistics/compute/added-columns';
import { STATISTIC_JSON_TABLE_SQL } from '../statistics/store/stored-json';

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
  {
    version: 2,
    name: 'positions, orders, statistics with generations, copy trading, withdrawals',
    up: (db) => {
      db.exec(`
        -- Trader positions; times are epoch ms (the wire shows ISO).
        CREATE TABLE positions (
          id TEXT PRIMARY KEY,
          account TEXT NOT NULL,
          protocol TEXT NOT NULL,
          key TEXT NOT NULL,
          log_id INTEGER NOT NULL,
          open_block_number INTEGER NOT NULL,
          close_block_number INTEGER,
          open_time_ms INTEGER NOT NULL,
          close_time_ms INTEGER,
          index_token TEXT NOT NULL,
          collateral_token TEXT,
          pair TEXT NOT NULL,
          size REAL NOT NULL,
          size_in_token REAL NOT NULL DEFAULT 0,
          collateral REAL NOT NULL,
          average_price REAL NOT NULL,
          fee REAL NOT NULL,
          funding REAL NOT NULL,
          realised_pnl REAL NOT NULL,
          pnl REAL NOT NULL,
          roi REAL NOT NULL,
          realised_roi REAL NOT NULL,
          leverage REAL NOT NULL,
          is_long INTEGER NOT NULL,
          is_win INTEGER,
          is_liquidate INTEGER NOT NULL DEFAULT 0,
          order_count INTEGER NOT NULL,
          order_increase_count INTEGER NOT NULL,
          order_decrease_count INTEGER NOT NULL,
          duration_s REAL,
          status TEXT NOT NULL CHECK (status IN ('OPEN', 'CLOSE')),
          tx_hashes TEXT NOT NULL DEFAULT '[]',
          created_at_ms INTEGER NOT NULL,
          updated_at_ms INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX positions_account ON positions(protocol, account, open_time_ms);
        CREATE INDEX positions_status_open ON positions(protocol, status, open_time_ms);
        CREATE INDEX positions_close ON positions(protocol, close_time_ms);
        CREATE INDEX positions_realised_pnl ON positions(protocol, status, realised_pnl);
        CREATE INDEX positions_open_pnl ON positions(status, realised_pnl);

        CREATE TABLE orders (
          id TEXT PRIMARY KEY,
          position_id TEXT NOT NULL REFERENCES positions(id),
          account TEXT NOT NULL,
          protocol TEXT NOT NULL,
          key TEXT,
          tx_hash TEXT NOT NULL,
          index_token TEXT NOT NULL,
          collateral_token TEXT,
          pair TEXT NOT NULL,
          type TEXT NOT NULL CHECK (type IN ('OPEN', 'INCREASE', 'DECREASE', 'CLOSE', 'MARGIN_TRANSFERRED')),
          is_long INTEGER NOT NULL,
          size_delta REAL NOT NULL,
          size REAL NOT NULL,
          size_delta_in_token REAL,
          size_in_token REAL,
          collateral_delta REAL NOT NULL,
          collateral REAL NOT NULL,
          price REAL NOT NULL,
          average_price REAL NOT NULL,
          realised_pnl REAL NOT NULL DEFAULT 0,
          fee REAL NOT NULL DEFAULT 0,
          funding REAL NOT NULL DEFAULT 0,
          leverage REAL,
          log_id INTEGER NOT NULL,
          block_number INTEGER NOT NULL,
          block_time_ms INTEGER NOT NULL,
          created_at_ms INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX orders_position ON orders(position_id, block_time_ms);
        CREATE INDEX orders_time ON orders(protocol, block_time_ms);
        CREATE INDEX orders_account ON orders(account, block_time_ms);

        -- Statistic records, one row per version. A row is visible at generation g when
        -- gen_from <= g < gen_to (gen_to NULL = current). A recompute closes the rows it replaces,
        -- so a point in time opened at g keeps seeing g (docs/api.md, Search-after).
        CREATE TABLE statistics (
          id TEXT NOT NULL,
          account TEXT NOT NULL,
          protocol TEXT NOT NULL,
          type TEXT NOT NULL CHECK (type IN ('FULL', 'D60', 'D30', 'D15', 'D7')),
          gen_from INTEGER NOT NULL,
          gen_to INTEGER,
          "totalTrade" REAL,
          "totalWin" REAL,
          "totalLose" REAL,
          "totalGain" REAL,
          "realisedTotalGain" REAL,
          "totalLoss" REAL,
          "realisedTotalLoss" REAL,
          "totalVolume" REAL,
          "avgVolume" REAL,
          "avgRoi" REAL,
          "realisedAvgRoi" REAL,
          "maxRoi" REAL,
          "realisedMaxRoi" REAL,
          "pnl" REAL,
          "realisedPnl" REAL,
          "maxPnl" REAL,
          "realisedMaxPnl" REAL,
          "realisedMaxDrawdown" REAL,
          "realisedMaxDrawdownPnl" REAL,
          "maxDrawdown" REAL,
          "maxDrawdownPnl" REAL,
          "winRate" REAL,
          "profitRate" REAL,
          "realisedProfitRate" REAL,
          "longRate" REAL,
          "orderPositionRatio" REAL,
          "profitLossRatio" REAL,
          "realisedProfitLossRatio" REAL,
          "gainLossRatio" REAL,
          "realisedGainLossRatio" REAL,
          "avgDuration" REAL,
          "minDuration" REAL,
          "maxDuration" REAL,
          "avgLeverage" REAL,
          "minLeverage" REAL,
          "maxLeverage" REAL,
          "totalLiquidation" REAL,
          "totalLiquidationAmount" REAL,
          "runTimeDays" REAL,
          "lastTradeAtTs" REAL,
          "totalFee" REAL,
          "unrealisedPnl" REAL,
          "rk_avgDuration" REAL,
          "rk_avgLeverage" REAL,
          "rk_avgVolume" REAL,
          "rk_orderPositionRatio" REAL,
          "rk_pnl" REAL,
          "rk_realisedAvgRoi" REAL,
          "rk_realisedMaxDrawdown" REAL,
          "rk_realisedMaxRoi" REAL,
          "rk_realisedPnl" REAL,
          "rk_realisedProfitLossRatio" REAL,
          "rk_realisedProfitRate" REAL,
          "rk_totalTrade" REAL,
          "rk_winRate" REAL,
          index_tokens TEXT NOT NULL DEFAULT '[]',
          pairs TEXT NOT NULL DEFAULT '[]',
          is_open_position INTEGER NOT NULL DEFAULT 0,
          last_trade_at_ms INTEGER NOT NULL,
          statistic_at_ms INTEGER NOT NULL,
          created_at_ms INTEGER NOT NULL,
          updated_at_ms INTEGER NOT NULL,
          -- Clustered by population: a leaderboard query reads one contiguous range of the table.
          PRIMARY KEY (protocol, type, id, gen_from)
        ) STRICT, WITHOUT ROWID;
        CREATE UNIQUE INDEX statistics_current ON statistics(protocol, type, id) WHERE gen_to IS NULL;
        CREATE INDEX statistics_account ON statistics(account, protocol) WHERE gen_to IS NULL;
        CREATE INDEX statistics_retired ON statistics(gen_to) WHERE gen_to IS NOT NULL;

        CREATE TABLE pits (
          id TEXT PRIMARY KEY,
          generation INTEGER NOT NULL,
          last_used_ms INTEGER NOT NULL
        ) STRICT;

        CREATE TABLE mark_prices (
          index_token TEXT PRIMARY KEY,
          price REAL NOT NULL,
          time_ms INTEGER NOT NULL
        ) STRICT;

        CREATE TABLE copy_trades (
          id TEXT PRIMARY KEY,
          user_id TEXT NOT NULL REFERENCES users(id),
          copy_wallet_id TEXT NOT NULL REFERENCES copy_wallets(id),
          account TEXT NOT NULL,
          protocol TEXT NOT NULL,
          status TEXT NOT NULL CHECK (status IN ('RUNNING', 'STOPPED')),
          -- Every other field of the resource, as the API writes it.
          config TEXT NOT NULL,
          created_at_ms INTEGER NOT NULL,
          updated_at_ms INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX copy_trades_user ON copy_trades(user_id, created_at_ms);
        CREATE INDEX copy_trades_source ON copy_trades(protocol, status, account);

        -- Extra source accounts of multiple-copy trades, so the engine finds followers by account.
        CREATE TABLE copy_trade_accounts (
          copy_trade_id TEXT NOT NULL REFERENCES copy_trades(id) ON DELETE CASCADE,
          account TEXT NOT NULL,
          PRIMARY KEY (copy_trade_id, account)
        ) STRICT;
        CREATE INDEX copy_trade_accounts_account ON copy_trade_accounts(account);

        CREATE TABLE copy_positions (
          id TEXT PRIMARY KEY,
          user_id TEXT NOT NULL REFERENCES users(id),
          copy_trade_id TEXT NOT NULL REFERENCES copy_trades(id),
          copy_wallet_id TEXT NOT NULL REFERENCES copy_wallets(id),
          copy_account TEXT NOT NULL,
          source_position_id TEXT,
          position_index INTEGER NOT NULL,
          copy_position_index INTEGER NOT NULL,
          index_token TEXT NOT NULL,
          identify_key TEXT NOT NULL,
          pair TEXT NOT NULL,
          key TEXT NOT NULL,
          source_order_tx_hashes TEXT NOT NULL DEFAULT '[]',
          source_size_delta TEXT NOT NULL,
          size_delta TEXT NOT NULL,
          source_initial_vol TEXT NOT NULL,
          total_size_delta REAL NOT NULL,
          initial_vol REAL NOT NULL,
          margin REAL NOT NULL,
          size_tokens REAL NOT NULL,
          is_long INTEGER NOT NULL,
          is_reverse INTEGER NOT NULL,
          entry_price REAL NOT NULL,
          leverage REAL NOT NULL,
          stop_loss_price REAL,
          stop_loss_amount REAL,
          take_profit_price REAL,
          take_profit_amount REAL,
          pnl REAL NOT NULL DEFAULT 0,
          realised_pnl REAL NOT NULL DEFAULT 0,
          funding REAL NOT NULL DEFAULT 0,
          fee REAL NOT NULL DEFAULT 0,
          close_type TEXT,
          status TEXT NOT NULL CHECK (status IN ('OPEN', 'CLOSE')),
          protocol TEXT NOT NULL,
          exchange TEXT NOT NULL,
          last_order_at_ms INTEGER NOT NULL,
          closed_at_ms INTEGER,
          created_at_ms INTEGER NOT NULL,
          updated_at_ms INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX copy_positions_user ON copy_positions(user_id, status, created_at_ms);
        CREATE INDEX copy_positions_trade ON copy_positions(copy_trade_id, status);
        CREATE INDEX copy_positions_wallet ON copy_positions(copy_wallet_id, status);
        CREATE INDEX copy_positions_source ON copy_positions(copy_trade_id, copy_account, index_token, status);

        CREATE TABLE copy_orders (
          id TEXT PRIMARY KEY,
          copy_position_id TEXT NOT NULL REFERENCES copy_positions(id),
          user_id TEXT NOT NULL REFERENCES users(id),
          price REAL NOT NULL,
          size REAL NOT NULL,
          pnl REAL NOT NULL DEFAULT 0,
          realised_pnl REAL NOT NULL DEFAULT 0,
          fee REAL NOT NULL DEFAULT 0,
          is_long INTEGER NOT NULL,
          is_increase INTEGER NOT NULL,
          protocol TEXT NOT NULL,
          tx_hash TEXT NOT NULL,
          created_at_ms INTEGER NOT NULL,
          seq INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX copy_orders_position ON copy_orders(copy_position_id, created_at_ms, seq);

        CREATE TABLE activity_logs (
          id TEXT PRIMARY KEY,
          user_id TEXT NOT NULL REFERENCES users(id),
          copy_trade_id TEXT NOT NULL,
          copy_wallet_id TEXT NOT NULL,
          copy_position_id TEXT,
          copy_order_id TEXT,
          protocol TEXT NOT NULL,
          source_account TEXT NOT NULL,
          copy_trade_title TEXT NOT NULL,
          exchange TEXT NOT NULL,
          index_token TEXT NOT NULL,
          pair TEXT NOT NULL,
          source_tx_hash TEXT NOT NULL,
          copy_wallet_name TEXT NOT NULL,
          cex_order_id TEXT,
          price REAL NOT NULL,
          source_price REAL NOT NULL,
          volume REAL NOT NULL,
          leverage REAL NOT NULL,
          is_long INTEGER NOT NULL,
          is_success INTEGER NOT NULL,
          is_reverse INTEGER NOT NULL,
          type TEXT NOT NULL,
          -- Why a failed action failed (e.g. insufficient balance); empty on success.
          reason TEXT NOT NULL DEFAULT '',
          created_at_ms INTEGER NOT NULL,
          seq INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX activity_logs_user ON activity_logs(user_id, created_at_ms, seq);

        CREATE TABLE withdrawals (
          id TEXT PRIMARY KEY,
          user_id TEXT NOT NULL REFERENCES users(id),
          copy_wallet_id TEXT NOT NULL REFERENCES copy_wallets(id),
          embedded_wallet TEXT NOT NULL,
          destination_address TEXT NOT NULL,
          amount REAL NOT NULL,
          fee_amount REAL NOT NULL,
          transfer_fee REAL NOT NULL,
          withdraw_fee REAL NOT NULL,
          withdraw_amount REAL NOT NULL,
          receive_amount REAL NOT NULL,
          status TEXT NOT NULL CHECK (status IN ('SUCCESSFUL', 'PENDING', 'FAILED')),
          tx_hash TEXT,
          charge_fee_tx_hash TEXT,
          charge_fee_time_ms INTEGER,
          withdraw_time_ms INTEGER,
          idempotency_key TEXT,
          created_at_ms INTEGER NOT NULL
        ) STRICT;
        CREATE UNIQUE INDEX withdrawals_idempotency ON withdrawals(user_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
        CREATE INDEX withdrawals_user ON withdrawals(user_id, created_at_ms);
      `);
    },
  },
  {
    version: 3,
    name: 'imported fills',
    up: (db) => {
      db.exec(`
        -- Venue fills as imported, kept so that positions can be rebuilt from all fills of an
        -- (account, protocol, coin) and a re-import changes nothing (the key dedupes).
        CREATE TABLE fills (
          key TEXT PRIMARY KEY,
          protocol TEXT NOT NULL,
          account TEXT NOT NULL,
          coin TEXT NOT NULL,
          time_ms INTEGER NOT NULL,
          seq INTEGER NOT NULL,
          is_buy INTEGER NOT NULL,
          price REAL NOT NULL,
          size_tokens TEXT NOT NULL,
          fee REAL NOT NULL DEFAULT 0,
          closed_pnl REAL,
          is_liquidation INTEGER NOT NULL DEFAULT 0,
          tx_hash TEXT,
          source TEXT NOT NULL
        ) STRICT;
        CREATE INDEX fills_series ON fills(protocol, account, coin, time_ms, seq);
      `);
    },
  },
  {
    version: 4,
    name: 'copy engine bookkeeping',
    up: (db) => {
      db.exec(`
        -- Every source order the copy engine has processed, by id: each is copied exactly once,
        -- even across a crash and restart (the mark is written in the copy's own transaction).
        CREATE TABLE copy_source_orders (
          id TEXT PRIMARY KEY,
          account TEXT NOT NULL,
          protocol TEXT NOT NULL,
          processed_at_ms INTEGER NOT NULL
        ) STRICT;
        -- A source position a copy trade decided to skip (filters are decided at the source OPEN
        -- and hold for the position's later orders).
        CREATE TABLE copy_skipped_sources (
          copy_trade_id TEXT NOT NULL,
          source_key TEXT NOT NULL,
          reason TEXT NOT NULL,
          PRIMARY KEY (copy_trade_id, source_key)
        ) STRICT;
        -- Orders handed in through POST /sandbox/orders, by their id (idempotent ingestion).
        CREATE TABLE sandbox_orders (
          id TEXT PRIMARY KEY,
          body TEXT NOT NULL,
          received_at_ms INTEGER NOT NULL
        ) STRICT;
      `);
    },
  },
  {
    version: 5,
    name: 'copy engine lookups',
    up: (db) => {
      db.exec(`
        -- Closes and decreases find the copies of a source position; price ticks the open copies
        -- of a token; activity logs number themselves per user.
        CREATE INDEX copy_positions_open_source ON copy_positions(source_position_id) WHERE status = 'OPEN';
        CREATE INDEX copy_positions_open_token ON copy_positions(index_token) WHERE status = 'OPEN';
        CREATE INDEX activity_logs_user_seq ON activity_logs(user_id, seq);
      `);
    },
  },
  {
    version: 6,
    name: 'stored statistic JSON',
    up: (db) => {
      // Each statistics row's API JSON, written with the row, so that search-after batches read
      // it instead of rendering it (stored-json.ts). Existing rows get theirs in migration 10:
      // the renderer reads the columns of the current schema, which exist only from there on.
      db.exec(STATISTIC_JSON_TABLE_SQL);
    },
  },
  {
    version: 7,
    name: 'copy position indexes no query uses',
    up: (db) => {
      // The copy engine finds positions by source, holding and token in memory (copy-engine/state.ts);
      // no statement reads these three any more, and every open, close and OVERWRITE paid for
      // them (~15 % of bench:copy; docs/copy-engine.md, Speed). The user, trade and wallet
      // indexes serve the pages, the PnL sums and the wallets' held margin.
      db.exec(`
        DROP INDEX IF EXISTS copy_positions_source;
        DROP INDEX IF EXISTS copy_positions_open_source;
        DROP INDEX IF EXISTS copy_positions_open_token;
      `);
    },
  },
  {
    version: 8,
    name: 'venue feed',
    up: (db) => {
      db.exec(`
        -- A venue's trade id orders fills inside one millisecond; startPosition tells a history
        -- that begins inside a position (docs/venue-feed.md).
        ALTER TABLE fills ADD COLUMN tid INTEGER;
        ALTER TABLE fills ADD COLUMN start_position TEXT;
        -- The accounts a venue feed follows, and how far each one's backfill has got: the cursor
        -- is written in the transaction that stores its page, so a kill resumes where it stopped.
        CREATE TABLE feed_accounts (
          venue TEXT NOT NULL,
          account TEXT NOT NULL,
          by_user INTEGER NOT NULL DEFAULT 0,
          by_leaderboard INTEGER NOT NULL DEFAULT 0,
          -- The user removed it: polling stops, the data stays, discovery does not add it back.
          removed INTEGER NOT NULL DEFAULT 0,
          added_at_ms INTEGER NOT NULL,
          -- Fills from this instant on are the account's live trading (the copy engine sees them).
          live_since_ms INTEGER NOT NULL,
          phase TEXT NOT NULL CHECK (phase IN ('recent', 'history', 'done')),
          -- The recent window starts here; the history phase pages [0, recent_from_ms).
          recent_from_ms INTEGER NOT NULL,
          cursor_ms INTEGER NOT NULL,
          fills INTEGER NOT NULL DEFAULT 0,
          first_fill_ms INTEGER,
          last_fill_ms INTEGER,
          error TEXT,
          PRIMARY KEY (venue, account)
        ) STRICT;
      `);
    },
  },
  {
    version: 9,
    name: 'several login codes per address',
    up: (db) => {
      db.exec(`
        -- Codes live 5 minutes: dropping the outstanding ones costs a user one more login call.
        -- Several per address (capped), so asking for a code never replaces someone else's.
        DROP TABLE login_codes;
        CREATE TABLE login_codes (
          id INTEGER PRIMARY KEY,
          address TEXT NOT NULL COLLATE NOCASE,
          code TEXT NOT NULL,
          expires_at_ms INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX login_codes_by_address ON login_codes (address);
        CREATE INDEX login_codes_by_expiry ON login_codes (expires_at_ms);
      `);
    },
  },
  {
    version: 10,
    name: 'statistics real clients select',
    up: addClientStatistics,
  },
  {
    version: 11,
    name: 'venue candles',
    up: (db) => {
      // The venue's candles, kept so that a window is fetched once (docs/venue-feed.md, Candles):
      // each candle by its opening instant, and each range of opening instants fetched whole
      // (a range with no candle in it is fetched too: the venue has none there to give).
      db.exec(`
        CREATE TABLE venue_candles (
          venue TEXT NOT NULL,
          coin TEXT NOT NULL,
          interval TEXT NOT NULL,
          time_ms INTEGER NOT NULL,
          open REAL NOT NULL,
          high REAL NOT NULL,
          low REAL NOT NULL,
          close REAL NOT NULL,
          volume REAL NOT NULL,
          trades INTEGER NOT NULL,
          PRIMARY KEY (venue, coin, interval, time_ms)
        ) STRICT, WITHOUT ROWID;
        CREATE TABLE venue_candle_ranges (
          venue TEXT NOT NULL,
          coin TEXT NOT NULL,
          interval TEXT NOT NULL,
          from_ms INTEGER NOT NULL,
          to_ms INTEGER NOT NULL,
          PRIMARY KEY (venue, coin, interval, from_ms)
        ) STRICT, WITHOUT ROWID;
      `);
    },
  },
  {
    version: 12,
    name: 'live market minutes',
    up: (db) => {
      // The live market's marks per symbol per minute, after the seeded history
      // (docs/simulator.md, "The live market's stored minutes"): first and last tick, OHLC.
      db.exec(`
        CREATE TABLE live_marks (
          symbol TEXT NOT NULL,
          minute_ms INTEGER NOT NULL,
          first_ms INTEGER NOT NULL,
          last_ms INTEGER NOT NULL,
          open REAL NOT NULL,
          high REAL NOT NULL,
          low REAL NOT NULL,
          close REAL NOT NULL,
          PRIMARY KEY (symbol, minute_ms)
        ) STRICT, WITHOUT ROWID;
      `);
    },
  },
  {
    version: 13,
    name: 'copy write path: one index per user',
    up: (db) => {
      // Each of an order's ten copies belongs to another user, copy trade and wallet, so each
      // index keyed by them dirties a page per copy at every commit (docs/copy-engine.md,
      // "Schema decisions for the write path"). The copy engine numbers a user's activity logs in
      // memory (copy-engine/log-numbers.ts), so the (user, seq) index that MAX(seq) read goes.
      // Copy positions keep the user index: the pages, the PnL sums and the wallets' held margin
      // are all of one user and read through it; a copy trade and a wallet belong to one user.
      db.exec(`
        DROP INDEX IF EXISTS activity_logs_user_seq;
        DROP INDEX IF EXISTS copy_positions_trade;
        DROP INDEX IF EXISTS copy_positions_wallet;
      `);
    },
  },
  {
    version: 14,
    name: 'one fill key for the feed and the importer',
    up: (db) => {
      // The feed and the importer keyed a tid-less fill differently, and a tid without the side,
      // which drops one side of a self-trade (docs/importing.md, "What happens to the fills"):
      // every stored fill takes the key both use now, so a re-import after upgrading finds them.
      rekeyStoredFills(db);
    },
  },
];
