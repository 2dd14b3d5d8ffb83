// Run as a child process by the keychain tests: tries one write and one read through the real
// KeytarSecretStore and prints what happened as JSON.
import { KeytarSecretStore } from '../../src/main/core/secrets/keytar-store';

const store = new KeytarSecretStore(`Copydesk probe ${process.pid}`);
store
  .set('probe', 'value')
  .then(() => store.get('probe'))
  .then((value) => console.log(JSON.stringify({ ok: true, value })))
  .catch((error: Error) =>
    console.log(JSON.stringify({ ok: false, name: error.name, message: error.message })),
  );
