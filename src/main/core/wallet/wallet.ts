import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Hex } from 'viem';
import type { SecretStore } from '../secrets/secret-store';
import { CoreError } from '../errors';
import type { WalletStatus } from '../../../shared/ipc/contract';

/** The keychain item that holds the login wallet's private key. */
export const WALLET_KEY_ACCOUNT = 'wallet.privateKey';

/**
 * The user's login wallet. The private key lives in the OS keychain and, while signing, in this
 * object's stack frame; no method returns it, and errors never carry it.
 */
export class Wallet {
  private address: string | null | undefined;

  constructor(private readonly secrets: SecretStore) {}

  /** Whether a wallet exists, and its address. */
  async status(): Promise<WalletStatus> {
    if (this.address === undefined) {
      const key = await this.secrets.get(WALLET_KEY_ACCOUNT);
      this.address = key ? accountOf(key).address : null;
    }
    return { hasWallet: this.address !== null, address: this.address };
  }

  /** Creates a new random key in the keychain. Refuses to replace an existing wallet. */
  async create(): Promise<WalletStatus> {
    return this.store(generatePrivateKey());
  }

  /** Imports a key (64 hex digits, with or without 0x). Refuses to replace an existing wallet. */
  async import(privateKey: string): Promise<WalletStatus> {
    const hex = (privateKey.startsWith('0x') ? privateKey : `0x${privateKey}`).toLowerCase() as Hex;
    try {
      privateKeyToAccount(hex);
    } catch {
      // The message must not echo the key.
      throw new CoreError('VALIDATION_FAILED', 'privateKey is not a valid secp256k1 private key');
    }
    return this.store(hex);
  }

  /** Deletes the key, if `address` is the wallet's address (typed back by the user). */
  async delete(address: string): Promise<WalletStatus> {
    const { address: current } = await this.status();
    if (current === null) throw new CoreError('NO_WALLET', 'There is no wallet to delete.');
    if (current.toLowerCase() !== address.toLowerCase()) {
      throw new CoreError(
        'VALIDATION_FAILED',
        'address does not match the wallet; type the address shown to delete it',
      );
    }
    await this.secrets.delete(WALLET_KEY_ACCOUNT);
    this.address = null;
    return { hasWallet: false, address: null };
  }

  /** Signs `message` (EIP-191 personal_sign) with the key from the keychain. */
  async signMessage(message: string): Promise<{ address: string; signature: Hex }> {
    const key = await this.secrets.get(WALLET_KEY_ACCOUNT);
    if (!key) throw new CoreError('NO_WALLET', 'Create or import a wallet first: logging in signs with it.');
    const account = accountOf(key);
    return { address: account.address, signature: await account.signMessage({ message }) };
  }

  private async store(key: Hex): Promise<WalletStatus> {
    const existing = await this.status();
    if (existing.hasWallet) {
      throw new CoreError(
        'CONFLICT',
        `A wallet exists already (${existing.address}); delete it first to replace it.`,
      );
    }
    await this.secrets.set(WALLET_KEY_ACCOUNT, key);
    this.address = accountOf(key).address;
    return { hasWallet: true, address: this.address };
  }
}

const accountOf = (key: string) => privateKeyToAccount(key as Hex);
