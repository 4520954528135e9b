#!/usr/bin/env bash
# Step 1 of the rlspec action (action.yml): put rlspec on the job's PATH.
#
# RLSPEC_INSTALL=release downloads rlspec-<os>-<arch> of the tag
# RLSPEC_VERSION (default: the tag the action is pinned to, RLSPEC_ACTION_REF)
# and checks it against the release's SHA256SUMS; =go builds ./cmd/rlspec from
# the action's own source (RLSPEC_ACTION_PATH, the pinned tag) with the
# runner's Go; =auto (default) takes release when the version is a semver tag
# and go otherwise. RLSPEC_RELEASE_URL replaces the release download base (a
# mirror, or file:// in rlspec's own tests).
set -euo pipefail

version=${RLSPEC_VERSION:-}
if [ -z "$version" ]; then
	version=${RLSPEC_ACTION_REF:-}
fi
mode=${RLSPEC_INSTALL:-auto}
semver='^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$'
if [ "$mode" = auto ]; then
	if [[ $version =~ $semver ]]; then mode=release; else mode=go; fi
fi
bin_dir=${RUNNER_TEMP:?}/rlspec-bin
mkdir -p "$bin_dir"

case $mode in
release)
	if ! [[ $version =~ $semver ]]; then
		echo "::error::install=release needs a release tag vX.Y.Z in version, got '$version'"
		exit 2
	fi
	os=$(uname -s | tr '[:upper:]' '[:lower:]')
	case $(uname -m) in
	x86_64 | amd64) arch=amd64 ;;
	aarch64 | arm64) arch=arm64 ;;
	*) echo "::error::no rlspec release binary for $(uname -m); use install: go"; exit 2 ;;
	esac
	file=rlspec-$os-$arch
	base=${RLSPEC_RELEASE_URL:-https://github.com/rlspec/rlspec/releases/download}/$version
	curl -fsSL --retry 3 -o "$bin_dir/$file" "$base/$file"
	curl -fsSL --retry 3 -o "$bin_dir/SHA256SUMS" "$base/SHA256SUMS"
	want=$(awk -v f="$file" '$2 == f || $2 == "*" f { print $1 }' "$bin_dir/SHA256SUMS")
	if command -v sha256sum >/dev/null; then
		got=$(sha256sum "$bin_dir/$file" | cut -d' ' -f1)
	else
		got=$(shasum -a 256 "$bin_dir/$file" | cut -d' ' -f1)
	fi
	if [ -z "$want" ] || [ "$want" != "$got" ]; then
		echo "::error::$file of $version does not match its SHA256SUMS (want '${want}', got $got)"
		exit 2
	fi
	mv "$bin_dir/$file" "$bin_dir/rlspec"
	chmod +x "$bin_dir/rlspec"
	;;
go)
	if ! command -v go >/dev/null; then
		echo "::error::install: go needs Go on the runner (actions/setup-go with go-version-file: \${{ github.action_path }}/go.mod)"
		exit 2
	fi
	(cd "${RLSPEC_ACTION_PATH:?}" && CGO_ENABLED=0 go build -trimpath \
		-ldflags "-X github.com/rlspec/rlspec/internal/buildinfo.version=${version:-(devel)}" \
		-o "$bin_dir/rlspec" ./cmd/rlspec)
	;;
*)
	echo "::error::install must be auto, release or go, got '$mode'"
	exit 2
	;;
esac

"$bin_dir/rlspec" version
echo "$bin_dir" >>"${GITHUB_PATH:?}"
echo "bin=$bin_dir/rlspec" >>"${GITHUB_OUTPUT:?}"
