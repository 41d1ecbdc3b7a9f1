#!/usr/bin/env bash
# siteplan's container image, without a registry: the static binary and
# its context are made here and built FROM scratch (deploy/Dockerfile).
#   deploy/image.sh build   the image, tagged $TAG (localhost/siteplan:dev)
#   deploy/image.sh test    build it, run it on a volume, and check it
#                           answers, passes its HEALTHCHECK, runs as
#                           non-root and keeps its database on the volume
# $ENGINE is podman (the default) or docker.
set -euo pipefail
cd "$(dirname "$0")/.."
engine=${ENGINE:-podman}
tag=${TAG:-localhost/siteplan:dev}
ctx=$(mktemp -d)
cleanup() { rm -rf "$ctx"; }
trap cleanup EXIT

CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o "$ctx/siteplan" .
cp /etc/ssl/certs/ca-certificates.crt "$ctx/"
printf 'root:x:0:0:root:/:/sbin/nologin\nsiteplan:x:65532:65532:siteplan:/data:/sbin/nologin\n' > "$ctx/passwd"
mkdir "$ctx/data"
cp deploy/Dockerfile "$ctx/"
# HEALTHCHECK is in Docker's image format, not OCI's.
$engine build --quiet --format docker -t "$tag" "$ctx" >/dev/null
echo "image: built $tag ($(du -h "$ctx/siteplan" | cut -f1) binary)"
[ "${1:-build}" = test ] || exit 0

# Run it as an operator would: a volume for /data, the port on loopback.
# No resource limits of the engine's own (a sandboxed machine refuses
# them), and runc where it is installed (crun refuses hybrid cgroups).
conf="$ctx/containers.conf"
printf '[containers]\ndefault_ulimits = []\n' > "$conf"
export CONTAINERS_CONF="$conf"
runtime=()
if [ "$engine" = podman ] && command -v runc >/dev/null; then runtime=(--runtime runc); fi
vol=$(mktemp -d)
chmod 0777 "$vol"
name="siteplan-image-test-$$"
cleanup() { $engine rm -f "$name" >/dev/null 2>&1 || true; rm -rf "$ctx" "$vol"; }
# (The engine's own complaint that it has no systemd to schedule the
# health checks with is kept out of the way; the check is run below.)
$engine run -d --name "$name" "${runtime[@]}" -p 127.0.0.1::8080 -v "$vol:/data" "$tag" >/dev/null 2>"$ctx/run.log" || { cat "$ctx/run.log"; exit 1; }
addr=$($engine port "$name" 8080/tcp | head -1)
for i in $(seq 1 150); do # until it listens: the server starts in a moment
  if "$ctx/siteplan" healthcheck --url "http://$addr/healthz" >/dev/null 2>&1; then break; fi
  if [ "$i" = 150 ]; then echo "image: the container does not answer on $addr"; $engine logs "$name"; exit 1; fi
  sleep 0.2
done
$engine healthcheck run "$name" >/dev/null || { echo "image: its HEALTHCHECK fails"; exit 1; }
user=$($engine inspect --format '{{.Config.User}}' "$tag")
[ "$user" = 65532:65532 ] || { echo "image: runs as $user, not the non-root 65532"; exit 1; }
[ -s "$vol/siteplan.db" ] || { echo "image: no database on the /data volume"; exit 1; }
echo "image: ok: answers on $addr, healthy, runs as $user, database on the volume"
