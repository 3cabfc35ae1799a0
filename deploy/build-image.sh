#!/usr/bin/env bash
# Builds Conduit's JVM image with buildah (no daemon, no container runtime), trains its AOT cache inside it, and
# writes it as an OCI layout that umoci unpacks. From the repository's root, after `./mvnw package` (or test):
#
#   deploy/build-image.sh [--base IMAGE] [--tag NAME]
#
#   --base IMAGE  the base (BASE_IMAGE of deploy/Containerfile), e.g. docker.io/library/eclipse-temurin:25-jre-noble;
#                 default: CI's base, made from Debian packages and a jlink of the JDK here (deploy/ci/base-rootfs.sh),
#                 kept in buildah's storage under a tag that names what it was made from
#   --tag NAME    the image's name (default localhost/conduit:<project version>)
#
# Steps: (1) the base; (2) the image without a cache; (3) a training run of that image, in a chroot of its root
# (deploy/ci/chroot-run.sh) with its entrypoint, environment and working directory, the simulated model and the
# Postgres in CONDUIT_DB_* (default 127.0.0.1:5432, database test): ready, one streamed run, SIGTERM; the JVM writes
# the AOT cache as it exits (-XX:AOTCacheOutput), with the exact runtime and jars of the image, as a cache must be;
# (4) the image again with the cache (target/image-aot/app.aot), only its last layer new; (5) target/image/oci, an
# OCI layout (tag "conduit"), and target/image/build.txt, the build's times and sizes.
# Needs root, buildah and curl; TRAIN_PORT (default 18259) must be free: the chroot shares the host's network.
set -euo pipefail
cd "$(dirname "$0")/.."

base="" tag=""
while (($#)); do
    case $1 in
        --base) base=$2; shift 2 ;;
        --tag) tag=$2; shift 2 ;;
        *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
done
version=$(sed -n 's:^    <version>\(.*\)</version>:\1:p' pom.xml | head -1)
tag=${tag:-localhost/conduit:$version}
port=${TRAIN_PORT:-18259}
out=target/image
started=$(date +%s%N)
ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }

[[ -f target/image-app/conduit.jar ]] || { echo "error: target/image-app/conduit.jar missing: run ./mvnw package first" >&2; exit 1; }
command -v buildah >/dev/null || { echo "error: buildah is not installed (Debian: apt-get install buildah)" >&2; exit 1; }
mkdir -p "$out"

# (1) the base
t=$(date +%s%N)
if [[ -z $base ]]; then
    jdk=${JLINK_JDK:-/usr/lib/jvm/temurin-25-jdk-amd64}
    recipe=$( { cat deploy/ci/base-rootfs.sh; "$jdk/bin/java" -version 2>&1; } | sha256sum | cut -c1-12)
    base=localhost/conduit-base:25-bookworm-$recipe
    if ! buildah inspect --type image "$base" >/dev/null 2>&1; then
        rootfs=$(mktemp -d "${TMPDIR:-/tmp}/conduit-base.XXXXXX")
        deploy/ci/base-rootfs.sh "$rootfs/root"
        tar -C "$rootfs/root" -cf "$rootfs/root.tar" .
        ctr=$(buildah from scratch)
        buildah add --quiet "$ctr" "$rootfs/root.tar" / >/dev/null
        buildah config --env PATH=/opt/java/openjdk/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
            --env JAVA_HOME=/opt/java/openjdk --cmd /bin/bash "$ctr"
        buildah commit --quiet --rm "$ctr" "$base" >/dev/null
        rm -rf "$rootfs"
        # bases made from an older recipe are named by nothing now
        for old in $(buildah images --format '{{.Name}}:{{.Tag}}' | grep '^localhost/conduit-base:' | grep -vx "$base"); do
            buildah rmi "$old" >/dev/null 2>&1 || true
        done
    fi
fi
base_ms=$(ms_since "$t")
echo "==> image: base $base ($base_ms ms)"

bud() { # the image from deploy/Containerfile on $base, as $1
    buildah bud --quiet --layers --pull=never -f deploy/Containerfile --ignorefile deploy/.dockerignore \
        --build-arg BASE_IMAGE="$base" -t "$1" . >/dev/null
}

# (2) the image without a cache
t=$(date +%s%N)
rm -rf target/image-aot && mkdir -p target/image-aot
bud "$tag-untrained"
first_ms=$(ms_since "$t")
echo "==> image: built without a cache ($first_ms ms)"

# (3) the training run, in the image's own root
t=$(date +%s%N)
fmt() { buildah inspect --type image --format "$1" "$tag-untrained"; }
mapfile -t entry < <(fmt '{{range .OCIv1.Config.Entrypoint}}{{println .}}{{end}}')
mapfile -t envs < <(fmt '{{range .OCIv1.Config.Env}}{{println .}}{{end}}')
workdir=$(fmt '{{.OCIv1.Config.WorkingDir}}')
train=()
for arg in "${entry[@]}"; do
    [[ -n $arg ]] || continue
    case $arg in -XX:AOTCache=*) train+=("-XX:AOTCacheOutput=${arg#-XX:AOTCache=}") ;; *) train+=("$arg") ;; esac
done
aot=$(printf '%s\n' "${train[@]}" | sed -n 's/^-XX:AOTCacheOutput=//p')
ctr=$(buildah from --pull=never "$tag-untrained")
mnt=$(buildah mount "$ctr")
cleanup() { [[ -n ${pid:-} ]] && kill "$pid" 2>/dev/null; buildah umount "$ctr" >/dev/null 2>&1; buildah rm "$ctr" >/dev/null 2>&1 || true; }
trap cleanup EXIT
# As root (0:0), not the image's user: the cache is written beside the jars, which the user may not write.
# No authentication for the training run (it listens on this machine only, and its requests carry no key).
env -i "${envs[@]}" QUARKUS_HTTP_PORT="$port" CONDUIT_LLM_PROVIDER=simulated CONDUIT_AUTH_MODE=none \
    CONDUIT_DB_HOST="${CONDUIT_DB_HOST:-127.0.0.1}" CONDUIT_DB_PORT="${CONDUIT_DB_PORT:-5432}" \
    CONDUIT_DB_NAME="${CONDUIT_DB_NAME:-test}" CONDUIT_DB_USERNAME="${CONDUIT_DB_USERNAME:-postgres}" \
    CONDUIT_DB_PASSWORD="${CONDUIT_DB_PASSWORD:-}" \
    deploy/ci/chroot-run.sh "$mnt" "${workdir:-/}" 0:0 "${train[@]}" > "$out/training.log" 2>&1 &
pid=$!
for _ in $(seq 1 600); do
    curl -sf -o /dev/null "http://127.0.0.1:$port/q/health/ready" && break
    kill -0 "$pid" 2>/dev/null || { tail -30 "$out/training.log" >&2; echo "error: the training run stopped" >&2; exit 1; }
    sleep 0.1
done
thread=$(curl -sf -X POST "http://127.0.0.1:$port/threads" -H 'content-type: application/json' -d '{}' \
    | sed -n 's/.*"thread_id":"\([^"]*\)".*/\1/p')
curl -sfN "http://127.0.0.1:$port/threads/$thread/runs/stream" -H 'content-type: application/json' \
    -d '{"assistant_id":"agent","input":{"messages":[{"role":"user","content":"Please plan my week"}]},"stream_mode":["messages-tuple","values"]}' \
    | grep -q '^event: end' || { echo "error: the training run's stream did not end" >&2; exit 1; }
kill -TERM "$pid"
wait "$pid" || true
pid=""
[[ -s $mnt$aot ]] || { tail -30 "$out/training.log" >&2; echo "error: no AOT cache written at $aot" >&2; exit 1; }
cp "$mnt$aot" target/image-aot/
cleanup; trap - EXIT
train_ms=$(ms_since "$t")
echo "==> image: AOT cache trained ($train_ms ms, $(du -m "target/image-aot/$(basename "$aot")" | cut -f1) MB)"

# (4) the image with the cache; the image this tag named before, if any, is removed (nothing else names it)
t=$(date +%s%N)
previous=$(buildah inspect --type image --format '{{.FromImageID}}' "$tag" 2>/dev/null || true)
bud "$tag"
buildah rmi "$tag-untrained" >/dev/null
current=$(buildah inspect --type image --format '{{.FromImageID}}' "$tag")
if [[ -n $previous && $previous != "$current" ]]; then buildah rmi "$previous" >/dev/null 2>&1 || true; fi
second_ms=$(ms_since "$t")

# (5) the OCI layout, and what it cost
rm -rf "$out/oci"
buildah push --quiet "$tag" "oci:$out/oci:conduit" >/dev/null
total_ms=$(ms_since "$started")
size=$(buildah inspect --type image --format '{{.Size}}' "$tag" 2>/dev/null || echo 0)
blobs=$(du -sb "$out/oci/blobs" | cut -f1)
cat > "$out/build.txt" <<REPORT
image=$tag
base=$base
base_ms=$base_ms
build_without_cache_ms=$first_ms
training_ms=$train_ms
build_with_cache_ms=$second_ms
total_ms=$total_ms
oci_layout_bytes=$blobs
REPORT
echo "==> image: $tag in $total_ms ms; OCI layout $out/oci ($((blobs / 1048576)) MB)"
