import type { Page } from '@playwright/test';
import { keccak256, toHex } from 'viem';
import { expect } from './fixtures';

/**
 * The fixture world's demo user (src/service/fixture/seed.ts): public on purpose, it owns the
 * fixture's copy trades and an embedded wallet with a balance.
 */
export const DEMO_PRIVATE_KEY = keccak256(toHex('copydesk demo user'));

/** Opens the terminal and waits until its local service is ready. */
export async function openTerminal(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect(page.getByTestId('service-state')).toContainText(/ready/i, { timeout: 30_000 });
}

/** Opens the terminal, creates a new login wallet and logs in with it, like a first-time user. */
export async function loginWithNewWallet(page: Page, url: string): Promise<void> {
  await openTerminal(page, url);
  await page.getByTestId('nav-login-key').click();
  await page.getByTestId('wallet-create').click();
  await expect(page.getByTestId('wallet-address')).toHaveText(/^0x[0-9a-fA-F]{40}$/);
  await page.getByTestId('auth-login').click();
  await expect(page.getByTestId('auth-session')).toBeVisible();
}

/** Opens the terminal, imports the demo key as the login wallet and logs in, like a user would. */
export async function loginAsDemo(page: Page, url: string): Promise<void> {
  await openTerminal(page, url);
  await page.getByTestId('nav-login-key').click();
  await page.getByTestId('wallet-import-input').fill(DEMO_PRIVATE_KEY);
  await page.getByTestId('wallet-import-submit').click();
  await expect(page.getByTestId('wallet-address')).toHaveText(/^0x[0-9a-fA-F]{40}$/);
  await page.getByTestId('auth-login').click();
  await expect(page.getByTestId('auth-session')).toBeVisible();
}
