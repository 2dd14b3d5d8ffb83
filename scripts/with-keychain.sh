#!/usr/bin/env bash
# Runs a command with a reachable OS keychain. Where none is running (a headless server), it
# starts a private D-Bus session with a gnome-keyring unlocked by a random password in a
# temporary folder, both of which vanish when the command ends. COPYDESK_EPHEMERAL_KEYCHAIN=1
# tells the command so (the terminal warns that a wallet made there does not survive).
set -euo pipefail

keychain_reachable() {
  [ -n "${DBUS_SESSION_BUS_ADDRESS:-}" ] || return 1
  node -e "require('keytar').findCredentials('Copydesk').then(()=>process.exit(0),()=>process.exit(1))" 2>/dev/null
}

if [ "${COPYDESK_FORCE_EPHEMERAL_KEYCHAIN:-0}" != "1" ] && keychain_reachable; then
  exec "$@"
fi

for tool in dbus-run-session gnome-keyring-daemon; do
  command -v "$tool" >/dev/null || { echo "copydesk: no OS keychain is running and $tool is missing: run npm run setup" >&2; exit 1; }
done
keyring_home=$(mktemp -d -t copydesk-keyring.XXXXXX)
trap 'rm -rf "$keyring_home"' EXIT
export XDG_DATA_HOME="$keyring_home" COPYDESK_EPHEMERAL_KEYCHAIN=1
password=$(head -c 32 /dev/urandom | base64 | tr -d '\n')
# The password only unlocks this run's keyring; it is never written anywhere.
PASSWORD="$password" dbus-run-session -- bash -c '
  printf %s "$PASSWORD" | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1
  unset PASSWORD
  exec "$@"' copydesk-keychain "$@" 2> >(grep -v -e "dbus-daemon\[" -e "gcr-prompter" -e "couldn.t initialize prompt" -e "Gtk-WARNING" >&2)
