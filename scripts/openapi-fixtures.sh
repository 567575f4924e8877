#!/usr/bin/env bash
# Checks (or with --write, re-makes) the OpenAPI fixtures of test/fixtures/openapi (SOURCES.md says where each
# comes from): Kubernetes' Swagger 2.0 description copied from its npm package, and the catalog imported from
# GitHub's REST description (the @octokit/openapi dev dependency).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=test/fixtures/openapi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

(cd "$work" && npm pack --silent kubernetes-client@9.0.0 >/dev/null && tar xzf kubernetes-client-9.0.0.tgz package/lib/specs/swagger-1.13.json.gz)
expected=b0945fcbe967ccf53eec6625300f74a19735818eb1a3009fd617d5d51ca760c3
actual=$(sha256sum "$work/package/lib/specs/swagger-1.13.json.gz" | cut -d' ' -f1)
[ "$actual" = "$expected" ] || { echo "kubernetes-client@9.0.0 lib/specs/swagger-1.13.json.gz has sha256 $actual, not $expected" >&2; exit 1; }

if [ "${1:-}" = --write ]; then
  cp "$work/package/lib/specs/swagger-1.13.json.gz" "$dir/kubernetes-1.13.swagger.json.gz"
  node bin/gateway catalog import node_modules/@octokit/openapi/generated/api.github.com.json --provider github-rest --name GitHub --output "$dir/github-rest.yaml"
else
  cmp "$work/package/lib/specs/swagger-1.13.json.gz" "$dir/kubernetes-1.13.swagger.json.gz"
  node bin/gateway catalog import node_modules/@octokit/openapi/generated/api.github.com.json --provider github-rest --name GitHub --output "$work/github-rest.yaml"
  cmp "$work/github-rest.yaml" "$dir/github-rest.yaml"
  echo "test/fixtures/openapi is what its sources make"
fi
