// Discovery: the venue's leaderboard file (one JSON file, not part of the documented API; read as
// best effort), ranked by 30-day PnL among accounts that traded in those 30 days.

/** Fetches the leaderboard file and returns the top `count` accounts (lower case). */
export async function topAccounts(url: string, count: number): Promise<string[]> {
  if (count <= 0) return [];
  let answer: unknown;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(60_000) });
    if (!response.ok) throw new Error(`answered ${response.status}`);
    answer = await response.json();
  } catch (error) {
    throw new Error(`the venue's leaderboard cannot be read: ${(error as Error).message}`, { cause: error });
  }
  return rankLeaderboard(answer, count);
}

/** The `count` accounts with the highest 30-day PnL among those with 30-day volume; bad rows are passed over. */
export function rankLeaderboard(answer: unknown, count: number): string[] {
  const rows = (answer as { leaderboardRows?: unknown } | null)?.leaderboardRows;
  if (!Array.isArray(rows)) throw new Error("the venue's leaderboard has no leaderboardRows list");
  const ranked: { account: string; pnl: number }[] = [];
  for (const row of rows as { ethAddress?: unknown; windowPerformances?: unknown }[]) {
    const account = row?.ethAddress;
    if (typeof account !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(account)) continue;
    const month = monthOf(row.windowPerformances);
    if (!month || !(month.vlm > 0) || !Number.isFinite(month.pnl)) continue;
    ranked.push({ account: account.toLowerCase(), pnl: month.pnl });
  }
  ranked.sort((a, b) => b.pnl - a.pnl || (a.account < b.account ? -1 : 1));
  return ranked.slice(0, count).map((r) => r.account);
}

function monthOf(performances: unknown): { pnl: number; vlm: number } | null {
  if (!Array.isArray(performances)) return null;
  const entry = performances.find((p) => Array.isArray(p) && p[0] === 'month') as
    [string, unknown] | undefined;
  const values = entry?.[1] as { pnl?: unknown; vlm?: unknown } | undefined;
  if (!values) return null;
  return { pnl: Number(values.pnl), vlm: Number(values.vlm) };
}
