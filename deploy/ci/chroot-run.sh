#!/bin/sh
# Starts a command in an unpacked image's root as a container runtime would, where no runtime can run: a mount
# namespace of its own (its mounts vanish with it), /proc, /dev, a tmpfs on /tmp (the image's declared volume),
# the host's /etc/hosts and /etc/resolv.conf, then the root changed, the working directory set, the user switched.
# The environment is the caller's: pass the image's with `env -i`. With --read-only the root is mounted read-only,
# as Kubernetes' readOnlyRootFilesystem does. The command is exec'd: its pid is this script's, so a signal sent to
# that pid reaches the command itself and its exit status is this script's.
#
#   deploy/ci/chroot-run.sh [--read-only] ROOT WORKDIR UID:GID COMMAND [ARG...]
#
# Needs root (mounts) and util-linux's unshare.
set -eu
ro=false
if [ "$1" = --read-only ]; then ro=true; shift; fi
root=$1 wd=$2 user=$3
shift 3
exec /usr/bin/unshare --mount --propagation private -- /bin/sh -eu -c '
    root=$1 wd=$2 user=$3 ro=$4
    shift 4
    for f in hosts resolv.conf; do [ -e "$root/etc/$f" ] || : > "$root/etc/$f"; done
    /bin/mount --bind "$root" "$root"
    if [ "$ro" = true ]; then /bin/mount -o remount,bind,ro "$root"; fi
    for f in hosts resolv.conf; do /bin/mount --bind "/etc/$f" "$root/etc/$f"; done
    /bin/mount -t proc proc "$root/proc"
    /bin/mount --rbind /dev "$root/dev"
    /bin/mount -t tmpfs -o mode=1777,size=256m tmpfs "$root/tmp"
    exec /usr/bin/unshare --root="$root" --wd="$wd" --setgid "${user#*:}" --setuid "${user%%:*}" -- "$@"
' chroot-run "$root" "$wd" "$user" "$ro" "$@"
