#!/usr/bin/env bash
# The root of CI's base image, made from Debian packages because no registry image can be pulled here:
# glibc from Debian bookworm minbase (debootstrap, cached) and nothing else a JVM never reads, a JDK 25 runtime cut with jlink at
# /opt/java/openjdk (where the eclipse-temurin images keep theirs, so deploy/Containerfile runs on either), and the
# image's user, uid 185 in group 0, in /etc/passwd.
#
#   deploy/ci/base-rootfs.sh OUT_DIR
#
# Needs root (debootstrap, chown) and the JDK in JLINK_JDK (default /usr/lib/jvm/temurin-25-jdk-amd64).
set -euo pipefail

out=${1:?usage: base-rootfs.sh OUT_DIR}
cache=${CONDUIT_IMAGE_CACHE:-$HOME/.cache/conduit-image}
jdk=${JLINK_JDK:-/usr/lib/jvm/temurin-25-jdk-amd64}
suite=bookworm
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
# What Conduit and its libraries use (java.rmi: a Quarkus start-up class names RemoteException; jdk.jfr and
# jdk.management.jfr: profiling in production; jdk.naming.dns, jdk.charsets: what JDBC and Flyway may ask for).
modules=java.base,java.logging,java.management,java.naming,java.net.http,java.sql,java.xml,java.rmi,\
java.security.jgss,java.security.sasl,java.instrument,jdk.unsupported,jdk.management,jdk.zipfs,jdk.crypto.ec,\
jdk.jfr,jdk.management.jfr,jdk.naming.dns,jdk.charsets

mkdir -p "$cache"
tarball="$cache/debian-$suite-minbase.tar"
if [[ ! -s $tarball ]]; then
    echo "==> base: debootstrap --variant=minbase $suite (once; cached in $tarball)"
    tmp=$(mktemp -d "$cache/rootfs.XXXXXX")
    debootstrap --variant=minbase "$suite" "$tmp" "$mirror" > "$cache/debootstrap.log" 2>&1 \
        || { tail -20 "$cache/debootstrap.log" >&2; exit 1; }
    tar -C "$tmp" -cf "$tarball.part" .
    mv "$tarball.part" "$tarball"
    rm -rf "$tmp"
fi

rm -rf "$out" && mkdir -p "$out"
# Only what the JVM reads, distroless-style (about 13 MB instead of minbase's 72): glibc (libc6's files; the JDK
# bundles its own zlib, certificates (lib/security/cacerts) and time zones (tzdb.dat), and glibc 2.36 resolves names
# itself), the usr-merge links, the image's users, and empty mount points. No shell and no package manager: nothing
# in the image runs one (debug a pod with `kubectl debug`, an ephemeral container).
src=$(mktemp -d "${TMPDIR:-/tmp}/conduit-minbase.XXXXXX")
trap 'rm -rf "$src"' EXIT
tar -C "$src" -xf "$tarball"
for link in bin sbin lib lib64; do [[ -L $src/$link ]] && cp -a "$src/$link" "$out/$link"; done
# libc6's own files, without documentation, translations or iconv modules (the JVM converts charsets itself)
grep -v -e '/share/' -e '/gconv' "$src/var/lib/dpkg/info/libc6:amd64.list" | while read -r f; do
    [[ -d $src$f && ! -L $src$f ]] && continue
    [[ -e $src$f || -L $src$f ]] || continue
    dir=$(cd "$src$(dirname "$f")" && pwd -P)      # through the usr-merge links: /lib/... is /usr/lib/...
    mkdir -p "$out${dir#"$src"}"
    cp -a "$src$f" "$out${dir#"$src"}/"
done
mkdir -p "$out/etc" "$out/proc" "$out/dev" "$out/tmp" "$out/root"
chmod 1777 "$out/tmp"
cp -L "$src/etc/nsswitch.conf" "$src/etc/host.conf" "$src/etc/os-release" "$src/etc/ld.so.cache" "$out/etc/"
grep -E '^(root|nobody):' "$src/etc/passwd" > "$out/etc/passwd"
grep -E '^(root|nogroup):' "$src/etc/group" > "$out/etc/group"
: > "$out/etc/hosts"; : > "$out/etc/resolv.conf"

echo "==> base: jlink $(basename "$jdk") -> /opt/java/openjdk"
mkdir -p "$out/opt/java"
# zip-6: the class files in lib/modules compressed (44 MB to about 25); the AOT cache holds the classes a start
# loads, already parsed, so the start does not pay for it.
"$jdk/bin/jlink" --add-modules "$modules" --strip-debug --no-man-pages --no-header-files --compress=zip-6 \
    --output "$out/opt/java/openjdk"

# The image's user: numeric in the Containerfile (runAsNonRoot checks a number), named here for tools that look it up.
grep -q '^conduit:' "$out/etc/passwd" || echo 'conduit:x:185:0:Conduit:/deployments:/usr/sbin/nologin' >> "$out/etc/passwd"
