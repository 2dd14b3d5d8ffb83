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
# The session runs in the background so that this script can pass a stop on: bash runs no trap
# while it waits for a command in the foreground, and dbus-run-session does not pass signals to
# its command, so a TERM sent to this script alone (npm does that) used to leave the command
# running with nobody to stop it (docs/desktop.md, "Stopping"). The command writes its pid
# before it starts; a signal goes to it. `<&0`: a command in the background would read
# /dev/null, not our standard input.
pid_file="$keyring_home/command.pid"
# The password only unlocks this run's keyring; it is never written anywhere.
PASSWORD="$password" PID_FILE="$pid_file" dbus-run-session -- bash -c '
  printf %s "$PASSWORD" | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1
  unset PASSWORD
  echo $$ >"$PID_FILE"
  unset PID_FILE
  exec "$@"' copydesk-keychain "$@" <&0 2> >(grep -v -e "dbus-daemon\[" -e "gcr-prompter" -e "couldn.t initialize prompt" -e "Gtk-WARNING" >&2) &
session=$!

# Hands `signal` to the command; before it has started, to the session and its children.
pass_on() {
  local signal=$1 pid
  pid=$(cat "$pid_file" 2>/dev/null || true)
  if [ -n "$pid" ]; then
    kill "-$signal" "$pid" 2>/dev/null || true
  else
    pkill "-$signal" -P "$session" 2>/dev/null || true
    kill "-$signal" "$session" 2>/dev/null || true
  fi
}
for signal in TERM INT HUP; do
  trap "pass_on $signal" "$signal"
done

# A trapped signal ends `wait` early: wait again until the session has ended, and end with its status.
status=0
while :; do
  if wait "$session"; then status=0; else status=$?; fi
  kill -0 "$session" 2>/dev/null || break
done
exit "$status"
